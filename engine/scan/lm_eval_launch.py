"""`lm_eval --model vllm --model_args pretrained=…,tensor_parallel_size=2,…` (EleutherAI's
lm-evaluation-harness): its vLLM model class builds `vllm.LLM(**model_args)` in the evaluating process
(lm_eval/models/vllm_causallms.py): `pretrained` is the model, `max_length` an older name of
max_model_len, `max_batch_size` becomes max_num_seqs, its own keys (batch size, generation length, BOS
handling, its data parallelism of whole engines) stay with it, and every other `key=value` reaches
LLM(...) as a keyword. The pairs are read as vLLM flags (`--key=value`) by the argv parser."""
from __future__ import annotations

import dataclasses

from vllm_kb.engine.scan import harness_generation
from vllm_kb.engine.scan.cli_args import Arg, ArgParser, normalise_flag
from vllm_kb.engine.scan.site import Setting, Site

_RENAMED = {"pretrained": "model", "max_length": "max_model_len", "max_batch_size": "max_num_seqs"}
_OWN = {"batch_size", "max_gen_toks", "add_bos_token", "prefix_token_id", "lora_local_path", "enable_thinking",
        "chat_template_args", "think_end_token", "data_parallel_size", "device", "parallelize"}


def is_vllm_model(words, start: int) -> int | None:
    """The index of the `--model_args` value when the command evaluates `--model vllm`, else None."""
    vals = [w.value for w in words]
    model, margs = None, None
    for k in range(start, len(vals)):
        v = vals[k] or ""
        if v in ("--model", "--model_args", "--model-args") and k + 1 < len(vals):
            if v == "--model":
                model = vals[k + 1]
            else:
                margs = k + 1
        elif v.startswith("--model="):
            model = v.split("=", 1)[1]
        elif v.startswith(("--model_args=", "--model-args=")):
            margs = k
    return margs if model == "vllm" and margs is not None else (-1 if model == "vllm" else None)


def site(ctx, rel: str, version: str, cmd, tl, env: dict, syntax: str = "cli") -> Site | None:
    if (got := harness_site(rel, cmd, tl, env, syntax, "lm_eval")) is None:
        return None
    s, at, text = got
    s.launch.update(harness_generation.lm_eval(ctx, rel, cmd.words, cmd.words[at].value if at >= 0 else None))
    if text is None:
        return s
    # its own keys (data_parallel_size) decide what its code passes vLLM (engine_kwargs.yaml conditions)
    # (data_parallel_size defaults to 1: VLLM.__init__ in every release read, 0.4.1–0.4.13)
    s.framework_keys = {"data_parallel_size": 1, **{k: v for k, v in split_pairs(text) if k in _OWN}}
    s.settings, s.unknown, s.model = pairs(ctx, version, rel, syntax, cmd.words[at].line, at, split_pairs(text), _RENAMED, _OWN)
    return s


def harness_site(rel: str, cmd, tl, env: dict, syntax: str, tool: str) -> tuple[Site, int, str | None] | None:
    """The site of a harness's `--model vllm` command line (its engine built in the evaluating process),
    the index of its `--model_args` word (-1: none) and that word's pairs (None: none, or unread);
    None when the command evaluates another model backend."""
    words = cmd.words
    at = is_vllm_model(words, tl.args_start)
    if at is None:
        return None
    s = Site(file=rel, line=cmd.line, syntax=syntax, kind=f"{tool} vllm", mode="standalone_offline",
             mode_evidence=f"{rel}:{words[tl.program_start].line}", end_line=cmd.end_line)
    # the pairs share one word: no change is written into it (the report shows each change instead)
    s.tool, s.env, s.source = tool, dict(env), {"words": [dataclasses.replace(x, start=-1, end=-1) for x in words]}
    if at < 0:
        return s, at, None
    w = words[at]
    if w.value is None:
        s.opaque.append({"code": "unresolved", "what": w.raw, "where": f"{rel}:{w.line}"})
        return s, at, None
    return s, at, w.value.split("=", 1)[1] if w.value.startswith("--model") else w.value


def split_pairs(text: str) -> list[tuple[str, str]]:
    out = []
    for pair in (p for p in text.split(",") if p.strip()):
        key, eq, value = pair.strip().partition("=")
        if eq:
            out.append((key.strip(), value))
    return out


def pairs(ctx, version: str, rel: str, syntax: str, line: int, at: int, items, renamed: dict, own, only=None):
    """Settings, unknowns and the model from a harness's `key=value` model arguments: its keys
    renamed to the engine's, its own keys left out (`only`: the engine keys that reach it, when the
    harness passes no others), the rest read as vLLM flags (`--key=value`) by the argv parser."""
    args: list[Arg] = []
    model = None
    for raw_key, value in items:
        key = renamed.get(raw_key, raw_key)
        if raw_key in own or key in own or (only is not None and key not in only and key != "model"):
            continue
        value = str(value)
        if key == "model":
            model = Setting("model", value, True, rel, line, raw_key, value, syntax)
            continue
        flag = "--" + key
        e = ctx.catalog.flag(normalise_flag(flag)[0])
        kind = e.field("kind", version if e.exists(version) else e.last) if e is not None else None
        if kind in ("switch", "negatable") and value.strip().lower() in ("true", "false"):
            if value.strip().lower() == "false":
                continue  # LLM(...)'s own default for these switches is off
            word = flag
        else:
            word = f"{flag}={value}"
        args.append(Arg(text=word, line=line, raw=word, note=None, unresolved=None, index=at, flag_text=None))
    parsed = ArgParser(ctx.catalog, version, rel, syntax).parse(args, positional_model=False)
    return dict(parsed.settings), dict(parsed.unknown), model
