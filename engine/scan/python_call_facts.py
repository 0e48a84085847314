"""What one engine call does to its process, read from the whole module (engine/scan/python_calls.py
adds it to the call's site): whether the engine is built when the module is imported (the spawn
check), whether CUDA is touched before it, the level the script puts it to sleep at, 0.3.x's
per-request `prefix_pos`, the LoRA rank a training script gives, whether the module is a
hand-written RL loop around the engine (engine/scan/python_rl_loop.py), and the most tokens its own
SamplingParams ask for (engine/scan/python_sampling.py)."""
from __future__ import annotations

import ast

from vllm_kb.engine.scan import llm_method_calls, python_lora, python_rl_loop, python_sampling
from vllm_kb.engine.scan.python_process import CudaOrder, ImportTime, cuda_facts
from vllm_kb.engine.scan.python_values import walk


def call_facts(importing: ImportTime, tree: ast.Module, call: ast.Call, target: str, per_file: dict,
                   text: str, builds_here: bool = False) -> dict:
    """Whether the engine is built when the module is imported (LLM() itself; for engine
    arguments, the `from_engine_args` that builds it), and whether CUDA was touched before.
    `per_file` keeps what is read of the whole file once for all of its sites (a file of vLLM's
    own tests has dozens)."""
    # a method of that name is spelled in the text (as Python reads it) before any walk
    plain = text.isascii()
    if target == "LLM" or builds_here:  # a wrapper whose constructor builds the engine (Orpheus): the call itself
        builds = [call]
    else:
        if "builds" not in per_file:
            per_file["builds"] = [n for n in walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                                  and n.func.attr in ("from_engine_args", "from_vllm_config")] \
                if not plain or "from_engine_args" in text or "from_vllm_config" in text else []
        builds = per_file["builds"]
    at_import = [n for n in builds if importing.runs(n)]
    out: dict = {"module_level": bool(at_import)}
    if "sleep" not in per_file:
        per_file["sleep"] = _sleep_level(tree) if not plain or "sleep" in text else None
    level = per_file["sleep"]
    if level is not None:
        out["sleep_level"] = level
    if target == "LLM" and "prefix_pos" in text:  # 0.3.x's per-request prefix caching (L66)
        lines = [n.lineno for n in walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "generate"
                 and any(k.arg == "prefix_pos" and not (isinstance(k.value, ast.Constant) and k.value.value is None) for k in n.keywords)]
        out.update({"generate_prefix_pos": min(lines)} if lines else {})
    if target == "LLM" and (legacy := llm_method_calls.token_ids_call(tree, text, call, per_file["rel"])):
        out["generate_token_ids"] = legacy  # gone from 0.10.2 (L288)
    if "lora" not in per_file:
        per_file["lora"] = python_lora.trained_rank(tree, text, per_file["rel"])
    out.update(per_file["lora"])
    if "rl" not in per_file:
        per_file["rl"] = python_rl_loop.rl_rollout(tree, text, per_file["rel"])
    if per_file["rl"]:
        out["rl_rollout"] = per_file["rl"]
    # LLM() alone: the module's own generate() calls are then all its engine serves; an engine a server
    # builds answers requests from outside, whatever a warm-up SamplingParams of its module asks
    if target == "LLM":
        if "requests" not in per_file:
            per_file["requests"] = python_sampling.request_tokens(tree, text, per_file["rel"])
        out.update(per_file["requests"])
    if at_import:
        out["cuda_before"] = importing.cuda_before(min(n.lineno for n in at_import))
    if builds:
        if "cuda_order" not in per_file:
            per_file["cuda_order"] = CudaOrder(tree)
        out.update(cuda_facts(per_file["cuda_order"], min(n.lineno for n in builds), bool(at_import), tree,
                              per_file["rel"]))
    return out


def _sleep_level(tree: ast.Module) -> int | None:
    """The level the script puts the engine to sleep at: `llm.sleep(level=2)`, `llm.sleep(1)`,
    `llm.sleep()` (vLLM's default, 1); the deepest one when there are several."""
    levels = []
    for n in walk(tree):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "sleep"):
            continue
        if isinstance(n.func.value, ast.Name) and n.func.value.id in ("time", "asyncio", "gevent", "trio", "anyio"):
            continue
        kw = next((k.value for k in n.keywords if k.arg == "level"), None)
        arg = kw if kw is not None else (n.args[0] if n.args else None)
        if arg is None and not n.keywords:
            levels.append(1)
        elif isinstance(arg, ast.Constant) and isinstance(arg.value, int) and arg.value in (1, 2) \
                and not isinstance(arg.value, bool):
            levels.append(arg.value)
    return min(levels) if levels else None
