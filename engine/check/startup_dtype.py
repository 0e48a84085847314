"""startup facts of the dtype: the one vLLM runs the model in (an explicit --dtype, or what `auto`
resolves to per release and GPU), whether float16 is unsafe for the model, and the dtype a
framework picks from the device (LLaMA-Factory's infer_optim_dtype)."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.check.startup_common import since
from vllm_kb.engine.kb.dependency_pins import requires
from vllm_kb.engine.kb.versions import SpecifierSet, Version

_EXPLICIT = {"half": "float16", "float16": "float16", "bfloat16": "bfloat16", "float": "float32", "float32": "float32"}

def float16_unsupported(table: dict, version: str) -> list[str]:
    for row in table["dtype"]["float16_unsupported"]:
        if SpecifierSet(row["vllm"]).contains(version):
            return list(row["model_types"])
    return []


# a framework whose code picks the dtype from the GPU and the checkpoint (knowledge/frameworks `fixed`)
DEVICE_PICKED = "infer_optim_dtype"


def _torch_emulates_bf16(release: str | None) -> bool:
    """Whether every torch the vLLM release requires is 2.3 or later, whose
    torch.cuda.is_bf16_supported() answers True on any CUDA GPU that can hold a bfloat16 tensor
    (pytorch#115924, first in 2.3.0; 2.2.2 still says False on a V100: pytorch#124996)."""
    spec = (requires(str(release)).get("torch") or {}).get("spec") if release else None
    m = re.fullmatch(r"\s*(==|>=)\s*(\d+\.\d+)(\.\d+)?\s*", spec or "")
    return m is not None and Version(m.group(2)) >= Version("2.3")


def device_picked_dtype(fixed: dict, model: dict | None, gpu: dict | None, release: str | None = None) -> dict:
    """The framework's own arguments with LLaMA-Factory 0.7's infer_optim_dtype resolved: bfloat16
    for a bfloat16 checkpoint where transformers' is_torch_bf16_gpu_available() says so, else float16;
    a checkpoint whose torch_dtype is unknown leaves vLLM's auto, which picks the same. That helper
    asks torch.cuda.is_bf16_supported(), which from torch 2.3 (vLLM 0.4.2's pin) says yes on a V100
    or T4 too, so the GPU is asked only under an older torch (an unknown GPU taken to have it)."""
    if fixed.get("dtype") != DEVICE_PICKED:
        return fixed
    cc, ckpt = (gpu or {}).get("compute_capability"), (model or {}).get("torch_dtype")
    has_bf16 = cc is None or cc >= 8.0 or _torch_emulates_bf16(release)
    picked = "auto" if not ckpt else "bfloat16" if ckpt == "bfloat16" and has_bf16 else "float16"
    return {**fixed, "dtype": picked}


def dtype_facts(model: dict, engine: dict, gpu: dict, version: str, table: dict) -> dict[str, Any]:
    """The dtype vLLM runs the model in (ModelConfig._get_and_verify_dtype): an explicit --dtype
    as given; `auto` keeps the checkpoint's torch_dtype (float32 → float16) up to 0.8.x, and from
    0.9.0 falls back to what the GPU supports (bfloat16 needs capability 8.0; 0.9.1+ never picks
    float16 for the models it calls numerically unstable in it)."""
    out: dict[str, Any] = {}
    unsafe = model.get("model_type") in float16_unsupported(table, version)
    if model.get("model_type"):
        out["float16_unsafe"] = unsafe
    asked = str(engine.get("dtype") or "auto").strip().lower().removeprefix("torch.")
    if asked in _EXPLICIT:
        return {**out, "dtype": _EXPLICIT[asked], "dtype_explicit": True}
    if asked != "auto":
        return out
    ckpt = model.get("torch_dtype")
    if not ckpt:
        return out
    out["dtype_explicit"] = False
    if not since(version, "0.9.0"):
        out["dtype"] = "float16" if ckpt == "float32" else ckpt
        return out
    cc = gpu.get("compute_capability")
    if cc is None:
        return out
    supported = ["bfloat16", "float16", "float32"] if cc >= 8.0 else ["float16", "float32"]
    if since(version, "0.9.1") and unsafe:
        supported.remove("float16")
    out["dtype"] = supported[0] if ckpt == "float32" or ckpt not in supported else ckpt
    return out
