"""A machine of different cards, written `--gpu "RTX-5070-Ti + RTX-5090"` (each part as a spec of its
own, a count included: "L4 x2 + L40S"), in the order the engine's ranks take them — CUDA device
order, as CUDA_VISIBLE_DEVICES lists them. The checks see the weakest card (the smallest memory,
the lowest compute capability; FP8/FP4 only where every card has them); the memory estimate sizes
each rank by the card it lands on (engine/check/memory: a tensor-parallel group by its smallest
card, pipeline stages one by one), which `devices_gib` carries."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.kb.errors import UsageError


def combine(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """One gpu facts dict for cards of several kinds (`parts`: each part's facts, with its count)."""
    smallest = min(parts, key=lambda g: g["memory_gib"])
    if len({g.get("vendor", "nvidia") for g in parts}) > 1:
        raise UsageError("one vLLM engine runs on one platform: NVIDIA (CUDA) and AMD (ROCm) GPUs cannot be mixed in --gpu")
    if any(g.get("vendor") == "amd" for g in parts):  # no compute capability: the first part's chip stands
        weakest = min(parts, key=lambda g: (not g.get("fp8"), g["memory_gib"]))
        out = dict(smallest)
        out.update(name=" + ".join(g["name"] + (f" x{g['count']}" if g["count"] > 1 else "") for g in parts),
                   id="mixed", count=sum(g["count"] for g in parts), arch=weakest["arch"], gfx=weakest["gfx"],
                   fp8=all(g.get("fp8") for g in parts), fp4=all(g.get("fp4") for g in parts), nvlink=False,
                   devices_gib=[float(g["memory_gib"]) for g in parts for _ in range(g["count"])])
        if not all(g.get("fp8_fnuz") == weakest.get("fp8_fnuz") for g in parts):
            out.pop("fp8_fnuz", None)
        return out
    weakest = min(parts, key=lambda g: g["compute_capability"])
    out = dict(smallest)
    out.update(
        name=" + ".join(g["name"] + (f" x{g['count']}" if g["count"] > 1 else "") for g in parts),
        id="mixed", count=sum(g["count"] for g in parts), arch=weakest["arch"],
        compute_capability=weakest["compute_capability"],
        fp8=all(g.get("fp8") for g in parts), fp4=all(g.get("fp4") for g in parts),
        nvlink=False,  # NVLink bridges join cards of one kind
        devices_gib=[float(g["memory_gib"]) for g in parts for _ in range(g["count"])])
    for key in ("unified_memory", "nvls"):
        if not all(g.get(key) for g in parts):
            out.pop(key, None)
    if len({g.get("driver_reserved_gib") for g in parts}) > 1:
        out.pop("driver_reserved_gib", None)  # one reserve per card kind; mixed cards keep the default
    return out


def devices(parts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The cards one by one, in the shape the NVML probe lists them."""
    return [{"name": g["name"], "memory_gib": float(g["memory_gib"]), "compute_capability": g.get("compute_capability"),
             **({"gfx": g["gfx"]} if g.get("gfx") else {}), "nvlink": False, "free_gib": None}
            for g in parts for _ in range(g["count"])]


def rank_memory_gib(gpu: dict, tp: int, pp: int, stage: int | None = None) -> float:
    """The memory that sizes a rank's budget: the smallest card of pipeline stage `stage`'s
    tensor-parallel group (None: of every rank the engine takes); the one card's memory when the
    machine is not mixed."""
    devices = gpu.get("devices_gib")
    if not devices:
        return float(gpu["memory_gib"])
    used = devices[:tp * pp] or devices
    group = used if stage is None else used[stage * tp:(stage + 1) * tp]
    return float(min(group or used))


def memory_label(gpu: dict) -> str:
    """The memory a report prints per card: "16", or on a mixed machine the range "16–31.8"."""
    devices = gpu.get("devices_gib") or [gpu["memory_gib"]]
    low, high = min(devices), max(devices)
    return f"{low:g}" if low == high else f"{low:g}–{high:g}"
