"""`lighteval vllm "model_name=…,dtype=…,tensor_parallel_size=…" TASKS` or `lighteval vllm model.yaml
TASKS` (Hugging Face's lighteval): its VLLMModelConfig is built from the comma-separated pairs or
from the YAML file's `model_parameters`, and VLLMModel builds `vllm.LLM(...)` from it in the
evaluating process. Which keys reach the engine, under which names, and the defaults it passes (the
bfloat16 of 0.9 and later) are the VLLMModelConfig entry of knowledge/deploy/llm_wrappers.yaml."""
from __future__ import annotations

import dataclasses
import posixpath
import re

import yaml

from vllm_kb.engine.kb import deploy_tools
from vllm_kb.engine.scan import harness_generation
from vllm_kb.engine.scan.lm_eval_launch import pairs
from vllm_kb.engine.scan.site import Setting, Site

_GENERATION = re.compile(r"generation_parameters=\{.*?\},?")  # lighteval drops these before it splits the pairs


def _entry() -> dict:
    return next(w for w in deploy_tools.load("llm_wrappers")["forwarders"] if w["module"] == "lighteval")


def _model_args(words, start: int) -> int | None:
    """The word that holds the model arguments: the first positional after `vllm` that is a
    `key=value` list or a YAML file (options may come first)."""
    for k in range(start, len(words)):
        v = words[k].value
        if v is None:
            if not words[k].raw.startswith("-"):
                return k
            continue
        if v.startswith("-"):
            continue
        if "=" in v or v.endswith((".yaml", ".yml")):
            return k
    return None


def _from_yaml(ctx, rel: str, path: str) -> tuple[str, dict] | None:
    """The YAML file's `model_parameters` (read from the project, relative to the root or to the
    script), with the file it was read from."""
    for cand in (path.lstrip("./"), posixpath.normpath(posixpath.join(posixpath.dirname(rel), path))):
        text = ctx.read(cand)
        if not text:
            continue
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError:
            return None
        params = data.get("model_parameters") if isinstance(data, dict) else None
        return (cand, params) if isinstance(params, dict) else None
    return None


def site(ctx, rel: str, version: str, cmd, tl, env: dict, syntax: str = "cli") -> Site | None:
    words = cmd.words
    s = Site(file=rel, line=cmd.line, syntax=syntax, kind="lighteval vllm", mode="standalone_offline",
             mode_evidence=f"{rel}:{words[tl.program_start].line}", end_line=cmd.end_line)
    # the pairs share one word (or sit in another file): no change is written into them
    s.tool, s.env, s.source = "lighteval", dict(env), {"words": [dataclasses.replace(x, start=-1, end=-1) for x in words]}
    at = _model_args(words, tl.args_start)
    if at is None:
        return s
    w = words[at]
    if w.value is None:
        s.opaque.append({"code": "unresolved", "what": w.raw, "where": f"{rel}:{w.line}"})
        return s
    entry = _entry()
    if w.value.endswith((".yaml", ".yml")):
        got = _from_yaml(ctx, rel, w.value)
        if got is None:
            s.opaque.append({"code": "unresolved", "what": w.value, "where": f"{rel}:{w.line}"})
            return s
        items = [(k, v) for k, v in got[1].items() if not isinstance(v, (dict, list)) and v is not None]
    else:
        s.launch.update(harness_generation.lighteval(rel, w.line, w.value))
        items = [(k.strip(), v) for k, eq, v in (p.strip().partition("=") for p in _GENERATION.sub("", w.value).split(",")) if eq]
    renamed = entry["args"]
    # its own keys (data_parallel_size) decide what its code passes vLLM (engine_kwargs.yaml conditions)
    # (data_parallel_size defaults to 1: VLLMModelConfig in every release read, 0.5.0–0.13.0)
    s.framework_keys = {"data_parallel_size": 1, **{k: v for k, v in items if k in set(entry.get("own", []))}}
    s.settings, s.unknown, s.model = pairs(ctx, version, rel, syntax, w.line, at, items, renamed, set(entry.get("own", [])),
                                           only=set(renamed.values()))
    if any(k == entry.get("defaults_with") for k, _ in items):
        for name, value in entry.get("defaults", {}).items():
            if name not in s.settings:
                s.settings[name] = Setting(name, value, True, rel, w.line, name, "", syntax, "default of lighteval's VLLMModelConfig")
    return s
