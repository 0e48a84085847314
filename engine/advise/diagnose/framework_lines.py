"""Python's own words for a framework calling into a vLLM that no longer has what it calls —
`No module named 'vllm.…'`, `cannot import name … from 'vllm.…'`, an AttributeError on vLLM's
engine, executor or worker objects — recognised as L43 framework-vllm. vLLM itself never
imports a module it does not ship, and RL frameworks (TRL, OpenRLHF, verl, Unsloth …) reach into
`llm.llm_engine.model_executor.driver_worker…`, which the V1 engine reorganised
(vllm/v1/engine/llm_engine.py keeps no model_executor in multiprocessing mode, 0.8.0+). The
check's own wordings (knowledge/checks/L.yaml error_text) are matched first; these come after
them, so a line another check words keeps its check."""
from __future__ import annotations

import re

from vllm_kb.engine.kb import error_text, traceback_text

CHECK_ID = "L43"
# vLLM modules, not its compiled extensions (`vllm._C`, `vllm._moe_C`: a broken build, not a framework)
_NO_MODULE = re.compile(r"No module named '(vllm\.[A-Za-z][\w.]*)'")
_NO_ATTRIBUTE = re.compile(r"'(\w+)' object has no attribute '(\w+)'")
# vLLM's packages in every release 0.4.1–0.34.0 (/work/sdists/src): one of them missing is a broken or
# shadowed install (a pip install on Windows, a `vllm/` folder in the working directory), not a framework
# reaching for what vLLM moved
_EVERY_RELEASE = frozenset({"vllm.distributed", "vllm.engine", "vllm.entrypoints", "vllm.lora", "vllm.model_executor",
                            "vllm.transformers_utils", "vllm.usage"})
# the objects of vLLM's engine a framework holds (LLM, its llm_engine, the executor, the workers)
# and the attributes it reaches them by; a model layer's missing attribute (ColumnParallelLinear
# … input_scale) is vLLM's own bug and stays out
_ENGINE_CLASSES = frozenset({
    "LLM", "LLMEngine", "AsyncLLMEngine", "AsyncLLM", "EngineCore", "EngineCoreProc", "InprocClient", "SyncMPClient",
    "AsyncMPClient", "UniProcExecutor", "MultiprocExecutor", "RayDistributedExecutor", "ExecutorWithExternalLauncher",
    "Worker", "WorkerWrapperBase", "GPUModelRunner", "ModelRunner", "WorkerWrap"})
_ENGINE_ATTRS = frozenset({
    "model_executor", "driver_worker", "model_runner", "engine_core", "collective_rpc", "get_kv_cache_spec",
    "determine_available_memory", "determine_num_available_blocks", "llm_engine", "_run_workers"})
# a frame in one of these packages is the framework's own code calling vLLM
_FRAMEWORK_DIRS = re.compile(r"(^|[/\\])(trl|openrlhf|verl|llamafactory|swift|unsloth|unsloth_zoo|xinference|oat|areal|nemo_rl|skyrl\w*)[/\\]")


def match(text: str) -> error_text.Match | None:
    """L43's match for a traceback or an error line, or None."""
    parsed = traceback_text.parse(text)
    lines = "\n".join(parsed.exceptions) or parsed.text
    m = _NO_MODULE.search(lines)
    if m and m.group(1) not in _EVERY_RELEASE:
        return _hit("No module named 'vllm.{module}'", m)
    for m in _NO_ATTRIBUTE.finditer(lines):
        cls, attr = m.group(1), m.group(2)
        if cls in _ENGINE_CLASSES or attr in _ENGINE_ATTRS or _framework_frames(parsed):
            return _hit("{class} object has no attribute {name}", m)
    return None


def _framework_frames(parsed: traceback_text.Parsed) -> bool:
    """Raised in a framework's own frame (its code reached for what vLLM no longer has)."""
    return bool(parsed.frames) and _FRAMEWORK_DIRS.search(parsed.frames[-1].file) is not None


def _hit(wording: str, m: re.Match) -> error_text.Match:
    return error_text.Match(CHECK_ID, wording, None, "python", len(m.group(0)), True)
