"""The CUDA-graph capture sizes a launch writes that VllmConfig._set_cudagraph_sizes refuses (L267,
vllm/config/vllm.py 0.11.1–0.34.0): an explicit max_cudagraph_capture_size below 1 (the assertion
"Maximum cudagraph size should be greater than or equal to 1 …"), an empty cudagraph_capture_sizes
list ("… should contain at least one element …"), and both written with the maximum other than the
largest listed size vLLM keeps (those at most max_num_batched_tokens): "customized
max_cudagraph_capture_size(=…) should be consistent with the max value of cudagraph_capture_sizes(=…)".
vLLM runs these only when CUDA graphs are on; `cg_sizes_certain` says nothing the launch passes could
turn them off or reshape the list (eager mode is not judged at all; a compilation mode or level, a
cudagraph_mode, an optimization level, tensor parallelism, whose sequence-parallel pass rounds the
sizes, BitsAndBytes or a platform other than CUDA, where vLLM may fall back to eager, leave the rule at P1, and
so does a list whose sizes exceed the max_num_batched_tokens vLLM picks itself, which is estimated)."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.check.startup_common import as_int

# what may switch CUDA graphs off or change the sizes before the check: compilation_config keys and flags
_GRAPH_KEYS = ("mode", "level", "cudagraph_mode", "use_cudagraph", "pass_config")
_GRAPH_FLAGS = ("optimization_level", "compilation_level", "cudagraph_mode", "performance_mode")


def cudagraph_size_facts(passed: dict, engine: dict, platform: str | None = None) -> dict[str, Any]:
    """`cg_sizes_refused` ("max_below_one", "empty" or "inconsistent", the order vLLM meets them) with
    `cg_sizes_max` (the maximum written) and `cg_sizes_top` (the largest listed size kept), and
    `cg_sizes_certain`. Only sizes written as numbers are judged."""
    if passed.get("enforce_eager") is True or engine.get("enforce_eager") is True:
        return {}
    raw = passed.get("compilation_config")
    cc: dict = raw if isinstance(raw, dict) else {}
    sizes = cc.get("cudagraph_capture_sizes", passed.get("cudagraph_capture_sizes"))
    top = cc.get("max_cudagraph_capture_size", passed.get("max_cudagraph_capture_size"))
    if sizes is None and top is None:
        return {}
    if cc.get("cudagraph_mode") in ("NONE", 0) or passed.get("cudagraph_mode") in ("NONE", 0):
        return {}
    tp = as_int(engine.get("tensor_parallel_size")) or 1
    shorthand = raw is not None and not isinstance(raw, dict)  # -O3
    # ModelConfig falls back to eager for BitsAndBytes 8-bit (0.13.0 model.py:992) and for
    # encoder-decoder models on ROCm (_verify_cuda_graph): neither is judged certain
    bnb = "bitsandbytes" in (engine.get("quantization"), engine.get("load_format"))
    certain = (tp == 1 and not shorthand and not bnb and platform in (None, "cuda") and not any(k in cc for k in _GRAPH_KEYS)
               and not any(passed.get(k) is not None for k in _GRAPH_FLAGS))
    out: dict[str, Any] = {"cg_sizes_certain": certain}
    if (top_n := as_int(top)) is not None:
        out["cg_sizes_max"] = top_n
        if top_n < 1:
            return {**out, "cg_sizes_refused": "max_below_one"}
    if isinstance(sizes, list) and not sizes:
        return {**out, "cg_sizes_refused": "empty"}
    budget = as_int(engine.get("max_num_batched_tokens"))
    if top_n is None or not isinstance(sizes, list) or budget is None or any(as_int(s) is None for s in sizes):
        return {}
    kept = max((s for s in sizes if s <= budget), default=0)
    if kept != top_n:
        if as_int(passed.get("max_num_batched_tokens")) is None and any(s > budget for s in sizes):
            # the sizes dropped hang on vLLM's own default budget (by GPU, usage context, chunked
            # prefill, batched DP MoE, a prefix-LM's floor), which the audit only estimates
            out["cg_sizes_certain"] = False
        return {**out, "cg_sizes_top": kept, "cg_sizes_refused": "inconsistent"}
    return {}
