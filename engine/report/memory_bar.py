"""The memory picture: how one GPU's memory splits between the weights, the KV cache, vLLM's
reserve (the profile run's activation peak, CUDA graphs, NCCL and other non-torch memory) and
what is left free (outside gpu_memory_utilization, or not visible to torch) — as a bar for the
terminal (`█ weights ▓ KV cache ▒ reserve ░ free`) and as a table row for Markdown. Numbers
come from the memory estimate (engine/check/memory), so they are estimates like it."""
from __future__ import annotations

from typing import Any

SEGMENTS = ("weights", "kv_cache", "reserve", "free")
GLYPH = {"weights": "█", "kv_cache": "▓", "reserve": "▒", "free": "░"}
STYLE = {"weights": "blue", "kv_cache": "green", "reserve": "yellow", "free": "dim"}
WIDTH = 40


def split(mem: dict | None, gpu_gib: float | None) -> dict[str, Any] | None:
    """GiB per GPU by segment, with the GPU's total; None when the estimate lacks the numbers.
    `over_gib` is how far the weights and the reserve exceed the GPU (they do not fit)."""
    if not mem or not gpu_gib or mem.get("weights_per_gpu_gib") is None:
        return None
    weights = float(mem["weights_per_gpu_gib"])
    reserve = sum(float(mem.get(k) or 0.0) for k in ("activation_peak_gib", "non_torch_gib", "cudagraph_gib"))
    kv = max(float(mem.get("kv_cache_gib") or 0.0), 0.0)
    used = weights + reserve + kv
    total = float(gpu_gib)
    return {"total_gib": total, "weights_gib": weights, "kv_cache_gib": kv, "reserve_gib": reserve,
            "free_gib": max(total - used, 0.0), "over_gib": max(used - total, 0.0)}


def cells(parts: dict[str, Any], width: int = WIDTH) -> list[tuple[str, int]]:
    """How many of `width` cells each segment takes: in proportion (largest remainder), and at
    least one for a segment that is there at all, so a small reserve is still seen."""
    sizes = {s: parts[f"{s}_gib"] for s in SEGMENTS}
    whole = sum(sizes.values()) or 1.0
    present = [s for s in SEGMENTS if sizes[s] > 0]
    exact = {s: sizes[s] / whole * width for s in present}
    n = {s: max(1, int(exact[s])) for s in present}
    for s in sorted(present, key=lambda s: exact[s] - int(exact[s]), reverse=True):
        if sum(n.values()) >= width:
            break
        n[s] += 1
    while sum(n.values()) > width:  # the minimum of one cell overdrew: take from the largest
        big = max(n, key=lambda s: n[s])
        n[big] -= 1
    return [(s, n[s]) for s in present]


def bar(parts: dict[str, Any], width: int = WIDTH) -> str:
    return "".join(GLYPH[s] * k for s, k in cells(parts, width))


def legend(parts: dict[str, Any], t) -> str:
    """`█ weights 16.4 GiB  ▓ KV cache 52.39 GiB  …  (of 79.6 GiB)`; `t(key, **kw)` translates."""
    from vllm_kb.engine.kb.messages import num

    items = [f"{GLYPH[s]} {t('memory_bar.' + s)} {num(round(parts[f'{s}_gib'], 2))} GiB" for s in SEGMENTS]
    tail = t("memory_bar.of_total", total=num(parts["total_gib"]))
    if parts["over_gib"] > 0:
        tail += " " + t("memory_bar.over", gib=num(round(parts["over_gib"], 2)))
    return "  ".join(items) + "  " + tail


def share(parts: dict[str, Any], segment: str) -> str:
    return f"{round(100 * parts[f'{segment}_gib'] / parts['total_gib'])}%" if parts["total_gib"] else "—"


def fit_sentence(mem: dict, t) -> str:
    """What the memory line says after the numbers, the same in every renderer: "will not start"
    only where no KV cache is left; under the 15 % headroom C1 asks for, yet with a cache, it starts
    (L15/L16 judge the rest); else the cache and its requests."""
    from vllm_kb.engine.kb.messages import num

    if not mem.get("fits") and (mem.get("kv_cache_gib") or 0) > 0 and mem.get("min_tp") is not None:
        return t("report.memory_tight", kv=num(mem["kv_cache_gib"]), tokens=num(mem.get("kv_tokens") or 0), min_tp=mem["min_tp"])
    if not mem.get("fits"):
        return t("report.memory_no_fit", min_tp=mem["min_tp"]) if mem.get("min_tp") is not None else t("report.memory_no_fit_any")
    if mem.get("kv_tokens") is not None:
        return t("report.memory_kv", kv=num(mem["kv_cache_gib"]), tokens=num(mem["kv_tokens"]),
                 conc=num(mem["max_concurrency"]), mml=mem["max_model_len"])
    return ""
