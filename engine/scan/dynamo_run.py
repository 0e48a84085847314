"""NVIDIA Dynamo's early launcher, `dynamo run in=… out=vllm MODEL` (the `dynamo-run` binary of the
ai-dynamo wheel, 0.1–0.3, 2025). Its own clap options, not vLLM's, are read (launch/dynamo-run/src/
flags.rs and the usage line of docs/guides/dynamo_run.md): the model (positional or --model-path),
--tensor-parallel-size, --context-length (vLLM's max_model_len), --kv-cache-block-size (block_size),
and --extra-engine-args, a JSON file whose keys the vLLM worker (launch/dynamo-run/src/subprocess/
vllm_inc.py) lays over its own engine arguments: the only way a vLLM option such as dtype reaches
the engine (ai-dynamo/dynamo#290: bf16 refused on a Quadro GV100, no --dtype to pass). What the
worker always sets (prefix caching on, the tokenizer skipped) comes as the tool's defaults. A
change is told, never written: a vLLM flag added to this command line stops clap."""
from __future__ import annotations

import json
import posixpath

from vllm_kb.engine.scan.cli_args import coerce
from vllm_kb.engine.scan.site import Setting, Site

# dynamo-run option → vLLM engine argument (the worker passes these as AsyncEngineArgs keywords)
ENGINE = {"--tensor-parallel-size": ("tensor_parallel_size", "int"), "--context-length": ("max_model_len", "int"),
           "--kv-cache-block-size": ("block_size", "int")}
# its own options that take a value (HTTP port, routing, multi-node placement, the served name)
_OWN = {"--http-port", "--model-name", "--model-config", "--num-nodes", "--node-rank", "--leader-addr", "--base-gpu-id",
        "--router-mode", "--kv-overlap-score-weight", "--router-temperature", "--use-kv-events", "--request-template",
        "--migration-limit", "--tls-cert-path", "--tls-key-path"}
# vllm_inc.py's arg_map before the --extra-engine-args file is laid over it
_DEFAULTS = {"enable_prefix_caching": True, "skip_tokenizer_init": True}


def is_vllm_run(vals: list, i: int) -> int | None:
    """Where the options start when `vals[i:]` is `dynamo run … out=vllm …` or `dynamo-run … out=vllm …`."""
    base = (vals[i] or "").rsplit("/", 1)[-1]
    start = i + 2 if base == "dynamo" and vals[i + 1:i + 2] == ["run"] else i + 1 if base == "dynamo-run" else None
    return start if start is not None and "out=vllm" in vals[start:] else None


def site(ctx, rel: str, version: str, cmd, tl, env: dict, syntax: str = "cli") -> Site:
    words = cmd.words
    s = Site(file=rel, line=cmd.line, syntax=syntax, kind="dynamo run", mode="standalone_serve",
             mode_evidence=f"{rel}:{words[tl.program_start].line}", end_line=cmd.end_line)
    s.tool, s.env, s.source = "dynamo", dict(env), {"words": words}
    model = None
    i = tl.args_start
    while i < len(words):
        w = words[i]
        text = w.value if w.value is not None else w.raw
        flag, eq, inline = text.partition("=")
        value_w = w if eq and flag.startswith("--") else (words[i + 1] if i + 1 < len(words) else None)
        value = inline if eq and flag.startswith("--") else (value_w.value if value_w is not None else None)
        step = 1 if eq and flag.startswith("--") else 2
        if text.startswith(("in=", "out=")) or text.startswith("-v") and not text.startswith("--"):
            i += 1
            continue
        if flag == "--model-path":
            model = Setting("model", value, value is not None, rel, w.line, flag, value_w.raw if value_w else "", syntax)
        elif flag in ENGINE:
            name, typ = ENGINE[flag]
            s.settings[name] = Setting(name, coerce(value, typ) if value is not None else None, value is not None, rel, w.line,
                                       flag, value_w.raw if value_w else "", syntax, None if value is not None else "unresolved")
        elif flag == "--extra-engine-args":
            _extra(ctx, rel, s, value, w, syntax)
        elif flag in _OWN:
            pass
        elif not text.startswith("-"):
            if model is None:
                model = Setting("model", w.value, w.value is not None, rel, w.line, "", w.raw, syntax)
            step = 1
        else:
            step = 1  # a switch of its own
        i += step
    s.model = model
    s.framework_defaults = {k: v for k, v in _DEFAULTS.items() if k not in s.settings}
    return s


def _extra(ctx, rel: str, s: Site, path: str | None, w, syntax: str) -> None:
    """The --extra-engine-args JSON file: its keys are engine arguments, over the worker's own."""
    text = None
    if path:
        for cand in (path.lstrip("./"), posixpath.normpath(posixpath.join(posixpath.dirname(rel), path))):
            if (text := ctx.read(cand)) is not None:
                break
    try:
        data = json.loads(text) if text else None
    except ValueError:
        data = None
    if not isinstance(data, dict):
        s.opaque.append({"code": "unresolved", "what": f"--extra-engine-args {path or w.raw}", "where": f"{rel}:{w.line}"})
        return
    for k, v in data.items():
        if k != "model":
            s.settings[k] = Setting(k, v, True, cand, 1, k, json.dumps(v), "yaml-config", f"--extra-engine-args {path}")
