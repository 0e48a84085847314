"""Whether `python X.py --use_vllm …` runs a TRL trainer. `--use_vllm` is TRL's key, but evaluation
scripts spell their own switch the same way (Qwen2.5-Math's `math_eval.py --use_vllm` builds an
`LLM(...)` itself): only a script that reaches TRL's trainer configs makes the flag a TRL rollout
(colocated with training by default). A script the project holds is read; one it does not hold is
told by the TRL-only keys it is given or a trainer's name."""
from __future__ import annotations

import posixpath
import re
from pathlib import PurePosixPath

# what a TRL trainer script shows: trl imported, or a trainer / config / parser of TRL named
# (through a project module that imports it: open-r1's `from open_r1.configs import GRPOConfig`)
_TRL_TEXT = re.compile(r"^\s*(?:from\s+trl\b|import\s+trl\b)|\b(?:GRPO|OnlineDPO|RLOO|NashMD|XPO|GKD|PPO|DPO)(?:Config|Trainer)\b"
                       r"|\bTrlParser\b", re.M)
# keys only TRL's trainer configs take (an evaluation script's own `--use_vllm` is not one)
_TRL_ONLY = {"vllm_mode", "vllm_gpu_memory_utilization", "vllm_server_host", "vllm_server_port", "vllm_server_base_url",
             "vllm_tensor_parallel_size", "vllm_importance_sampling_correction", "num_generations"}
# a script TRL's examples or a recipe names for a trainer
_TRAINER_NAME = re.compile(r"(?:grpo|dpo|rloo|ppo|gkd|xpo|nash|online|trainer|train|rl|sft|r1)", re.I)


def runs_trl(ctx, rel: str | None, script: str, rest: list[str]) -> bool:
    """True unless the script is known not to be TRL's: its text in the project shows no TRL,
    or, not held, it is given no TRL-only key and its name is no trainer's."""
    text = _script_text(ctx, rel, script) if ctx is not None and rel is not None else None
    if text is not None:
        return bool(_TRL_TEXT.search(text))
    keys = {v.lstrip("-").replace("-", "_").split("=")[0] for v in rest if v.startswith("--")}
    return bool(keys & _TRL_ONLY) or "config" in keys or bool(_TRAINER_NAME.search(script.rsplit("/", 1)[-1]))


def _script_text(ctx, rel: str, script: str) -> str | None:
    ref = script_ref(ctx, rel, script)
    return ctx.read(ref) if ref is not None else None


def script_ref(ctx, rel: str, script: str) -> str | None:
    """The script as the command names it: beside the file, at the root, in a folder above the
    file (a script run as `cd ..; python x.py`), else the project's one file of that path's tail."""
    ref = ctx.resolve_ref(rel, script)
    if ref is None and "$" not in script and not script.startswith(("/", "~")):
        here = PurePosixPath(rel).parent
        for up in here.parents:
            cand = posixpath.normpath((up / script).as_posix())
            if cand in _files(ctx):
                ref = cand
                break
        if ref is None:
            tail = posixpath.normpath(script).lstrip("/")
            # the files that are `tail` or end with `/tail`: the context's index of path tails (a
            # pass over every file per script was a quarter of the 5,000-file tree's audit)
            hits = (ctx.files_ending(tail) if hasattr(ctx, "files_ending")
                    else [f for f in _files(ctx) if ("/" + f).endswith("/" + tail)])
            ref = hits[0] if len(hits) == 1 else None
    return ref


def _files(ctx) -> set[str]:
    got = ctx.__dict__.get("_file_set")
    if got is None or len(got) != len(ctx.files):
        got = ctx.__dict__["_file_set"] = set(ctx.files)
    return got
