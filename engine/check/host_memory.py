"""Host memory vLLM pins on one node, beside the GPU estimate (engine/check/memory): what sleep
mode level 1 offloads (each rank keeps its weight shard in pinned CPU memory while asleep; level
2 discards the weights instead), `cpu_offload_gb` per rank, and the swap space vLLM reserves and
checks against the host's RAM while the option exists (≤0.17: swap_space × tensor_parallel_size
must stay under 70% of total CPU memory, vllm/config/cache.py). Ranks on a node: every GPU of the
node for a colocated RL rollout, else TP × PP × local DP ranks."""
from __future__ import annotations

from typing import Any

_NUM = (int, float)


def _num(v) -> float | None:
    return float(v) if isinstance(v, _NUM) and not isinstance(v, bool) else None


def ranks_on_node(facts: dict) -> int | None:
    site, launch, gpu = facts.get("site") or {}, facts.get("launch") or {}, facts.get("gpu") or {}
    if site.get("mode") == "rlhf_colocate":
        n = _num(gpu.get("count"))
        return int(n) if n else None
    if launch.get("multi_node"):
        return None
    n = _num(launch.get("gpus_needed"))
    return int(n) if n else None


def estimate(facts: dict) -> dict[str, Any]:
    """`host` facts: needed_gib and its parts (only those that can be sized), the ranks counted,
    and `swap_checked_gib` (swap_space × TP, what vLLM compares with 70% of RAM)."""
    engine, launch = facts.get("engine") or {}, facts.get("launch") or {}
    mem = facts.get("memory") or {}
    out: dict[str, Any] = {}
    tp = _num(engine.get("tensor_parallel_size")) or 1.0
    swap = _num(engine.get("swap_space"))
    if swap is not None:
        out["swap_checked_gib"] = round(swap * tp, 2)
    sleeps = engine.get("enable_sleep_mode") is True and launch.get("sleep_level") == 1
    offload = _num(engine.get("cpu_offload_gb"))
    v0_swap = bool(swap) and _v0(facts)
    out["pins"] = bool(sleeps or offload or v0_swap)
    ranks = ranks_on_node(facts)
    if ranks is None or not out["pins"]:
        return out
    out["ranks"] = ranks
    parts: dict[str, float] = {}
    if sleeps:
        w = _num(mem.get("weights_per_gpu_gib"))
        if w is None:
            return out  # the largest part cannot be sized: say nothing rather than too little
        parts["sleep_weights_gib"] = round(w * ranks, 1)
    if offload:
        parts["cpu_offload_gib"] = round(offload * ranks, 1)
    if v0_swap and swap is not None:
        parts["swap_gib"] = round(swap * ranks, 1)
    out.update(parts)
    out["needed_gib"] = round(sum(parts.values()), 1)
    return out


def _v0(facts: dict) -> bool:
    """The V0 engine allocates the swap space as pinned CPU blocks; V1 does not use it."""
    from vllm_kb.engine.kb.versions import parse

    v = parse(str((facts.get("vllm") or {}).get("version") or "0"))
    env = facts.get("env") or {}
    return v < parse("0.8.0") or (v < parse("0.11.0") and env.get("VLLM_USE_V1") == "0")
