"""A first-order memory fit: weight bytes per GPU against what `gpu_memory_utilization` leaves
after runtime overhead, and the smallest tensor-parallel size that leaves room for KV cache.
Estimates, labelled as such in every report."""
from __future__ import annotations

from typing import Any

BYTES_PER_PARAM = {
    "fp32": 4.0, "float32": 4.0, "bf16": 2.0, "fp16": 2.0, "auto": 2.0,
    "fp8": 1.0, "int8": 1.0, "4bit": 0.56, "fp4": 0.56,
}
# quantization method → weight width class
QUANT_WIDTH = {
    "fp8": "fp8", "fp8_per_tensor": "fp8", "fp8_per_block": "fp8", "fp8_per_channel": "fp8", "mxfp8": "fp8",
    "fbgemm_fp8": "fp8", "modelopt": "fp8", "modelopt_mxfp8": "fp8", "deepseek_v4_fp8": "fp8",
    "experts_int8": "int8", "int8": "int8", "int8_per_channel_weight_only": "int8", "compressed-tensors": "int8",
    "awq": "4bit", "awq_marlin": "4bit", "auto_awq": "4bit", "gptq": "4bit", "gptq_marlin": "4bit", "auto_gptq": "4bit",
    "bitsandbytes": "4bit", "gguf": "4bit", "int4": "4bit", "moe_wna16": "4bit", "marlin": "4bit",
    "mxfp4": "fp4", "gpt_oss_mxfp4": "fp4", "nvfp4": "fp4", "modelopt_fp4": "fp4", "nvfp4_per_token": "fp4",
}
RUNTIME_OVERHEAD_GIB = 1.5  # CUDA context, NCCL buffers, non-torch allocations
ACTIVATION_FRACTION = 0.03  # peak activation memory of a profile run, as a share of the GPU
KV_RESERVE_FRACTION = 0.15  # what must stay free for KV cache to be worth serving


def weight_width(engine: dict, model: dict) -> str:
    q = engine.get("quantization") or model.get("quant_method")
    if q:
        return QUANT_WIDTH.get(str(q), "4bit" if "4" in str(q) else "fp8" if "8" in str(q) else "bf16")
    dtype = str(engine.get("dtype") or "auto").lower()
    return "fp32" if dtype in ("float32", "fp32", "float") else "bf16"


def estimate(model: dict, gpu: dict, engine: dict) -> dict[str, Any]:
    params = model.get("params_b")
    if not params:
        return {}
    width = weight_width(engine, model)
    weights = params * 1e9 * BYTES_PER_PARAM[width] / 2**30
    out: dict[str, Any] = {"weights_gib": round(weights, 1)}
    mem = gpu.get("memory_gib")
    if not mem:
        return out
    gmu = float(engine.get("gpu_memory_utilization") or 0.9)
    usable = mem * gmu - RUNTIME_OVERHEAD_GIB - ACTIVATION_FRACTION * mem
    tp = int(engine.get("tensor_parallel_size") or 1)
    pp = int(engine.get("pipeline_parallel_size") or 1)
    per_gpu = weights / max(1, tp * pp)
    out["weights_per_gpu_gib"] = round(per_gpu, 1)
    out["usable_per_gpu_gib"] = round(usable, 1)
    out["fits"] = per_gpu <= usable * (1 - KV_RESERVE_FRACTION)
    min_tp = next((t for t in (1, 2, 4, 8, 16, 32, 64) if weights / (t * pp) <= usable * (1 - KV_RESERVE_FRACTION)), None)
    if min_tp is not None:
        out["min_tp"] = min_tp
    return out
