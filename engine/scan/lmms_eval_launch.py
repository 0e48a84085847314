"""`python -m lmms_eval --model vllm --model_args model=…,tensor_parallel_size=4,…` (EvolvingLMMs-Lab's
lmms-eval): `--model vllm` resolves to its chat class (lmms_eval/models/chat/vllm.py, the registry
prefers a chat class unless `--force_simple`), whose parent (lmms_eval/models/simple/vllm.py) builds
`vllm.LLM(model=, tensor_parallel_size=, data_parallel_size=, gpu_memory_utilization=,
trust_remote_code=, disable_log_stats=, seed=1, **kwargs)` in the evaluating process. Its own keys
(batch size, frames, pixels, chat template, generation length) stay with it; every other pair reaches
LLM(...) as a keyword. Read in the 0.4.0, 0.5.0, 0.6.0, 0.6.1, 0.7, 0.7.1, 0.7.2 and 0.7.3 wheels and
at commit 75571cfe: the defaults it passes (gpu_memory_utilization 0.8, trust_remote_code True, seed 1)
are the same in all. data_parallel_size reaches LLM(...) from 0.7.1 only (before, it was its own); the
project's lmms-eval release is not read yet, so it is kept as the harness's key, not an engine setting."""
from __future__ import annotations

from vllm_kb.engine.scan.lm_eval_launch import harness_site, is_vllm_model, pairs, split_pairs
from vllm_kb.engine.scan.site import Setting, Site

_OWN = {"batch_size", "max_frame_num", "chat_template", "min_image_pixels", "image_first", "max_new_tokens",
        "max_pixels", "fps", "nframes", "is_qwen3_vl", "data_parallel_size"}
# what its VLLM class hands LLM(...) when the pair is not written (simple/vllm.py __init__, every release read)
_DEFAULTS = {"gpu_memory_utilization": 0.8, "trust_remote_code": True, "seed": 1}


def site(ctx, rel: str, version: str, cmd, tl, env: dict, syntax: str = "cli") -> Site | None:
    if (got := harness_site(rel, cmd, tl, env, syntax, "lmms_eval")) is None:
        return None
    s, at, text = got
    if text is None:
        return s if s.opaque else _with_defaults(s, rel, cmd.line, syntax, set())
    items = split_pairs(text)
    # (data_parallel_size defaults to 1: VLLM.__init__ in every release read)
    s.framework_keys = {"data_parallel_size": 1, **{k: v for k, v in items if k in _OWN}}
    s.settings, s.unknown, s.model = pairs(ctx, version, rel, syntax, cmd.words[at].line, at, items, {}, _OWN)
    return _with_defaults(s, rel, cmd.words[at].line, syntax, {k for k, _ in items})


def _with_defaults(s: Site, rel: str, line: int, syntax: str, written: set) -> Site:
    """Its class's own defaults for what the command line does not write (a `trust_remote_code=False`
    written is no setting, and no default either)."""
    for name, value in _DEFAULTS.items():
        if name not in written and name not in s.settings:
            s.settings[name] = Setting(name, value, True, rel, line, name, "", syntax, "default of lmms-eval's VLLM model class")
    return s
