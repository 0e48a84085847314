"""Engines that share a GPU: two vLLM launches of one project that run at the same time on an
overlapping set of devices. `gpu_memory_utilization` is a fraction of the device's *total*
memory per instance, so the fractions of co-located engines must sum below 1 (minus what CUDA
contexts take); from 0.9.1 the second engine refuses to start ("Free memory on device … is less
than desired GPU memory utilization"). Evidence that two launches run together is required, not
assumed: a shell command put in the background (`… &`) before the other, services of one compose
file, or engines built in the same Python process."""
from __future__ import annotations

from typing import Any, Callable

ENGINE_KINDS = frozenset({"vllm serve", "api_server", "legacy api_server", "LLM()", "EngineArgs()", "AsyncEngineArgs()"})


def devices(facts: dict) -> set[int] | None:
    """Physical GPU ids the engine uses: the first world-size ids of CUDA_VISIBLE_DEVICES (or of
    0…n when it is unset); None when they cannot be told."""
    env, engine = facts.get("env") or {}, facts.get("engine") or {}
    world = 1
    for k in ("tensor_parallel_size", "pipeline_parallel_size"):
        v = engine.get(k)
        world *= v if isinstance(v, int) and not isinstance(v, bool) and v > 0 else 1
    cvd = env.get("CUDA_VISIBLE_DEVICES")
    if cvd is None:
        return set(range(world))
    ids = [x.strip() for x in cvd.split(",") if x.strip()]
    if not ids or not all(x.isdigit() for x in ids):
        return None  # GPU UUIDs, $VARS, -1
    return {int(x) for x in ids[:world]}


def _util(facts: dict) -> float | None:
    v = (facts.get("engine") or {}).get("gpu_memory_utilization")
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _backgrounded(site, read: Callable[[str], str | None]) -> bool:
    text = read(site.file) or ""
    lines = text.splitlines()
    end = site.end_line or site.line
    if not 0 < end <= len(lines):
        return False
    tail = lines[end - 1].split("#", 1)[0].rstrip()
    return tail.endswith("&") and not tail.endswith("&&")


def _together(a, b, read) -> bool:
    """`a` (written first) and `b` run at the same time."""
    if a.file != b.file:
        return False
    if a.syntax == b.syntax == "compose":
        return (a.source or {}).get("service") != (b.source or {}).get("service")
    if a.syntax == b.syntax == "python-call":
        return a.kind == b.kind == "LLM()"
    if a.syntax == b.syntax == "cli":
        return _backgrounded(a, read)
    return False


def annotate(items: list[tuple[Any, dict]], read: Callable[[str], str | None]) -> None:
    """Add `launch.gpu_shared_with` (the other sites) and `launch.gpu_shared_util` (the sum of
    every co-located engine's fraction, this one included) to each site sharing a GPU."""
    engines = [(s, f) for s, f in items if s.kind in ENGINE_KINDS]
    for i, (site, facts) in enumerate(engines):
        mine = devices(facts)
        util = _util(facts)
        if mine is None or util is None:
            continue
        peers, total = [], util
        for j, (other, ofacts) in enumerate(engines):
            if i == j:
                continue
            first, second = (other, site) if j < i else (site, other)
            if not _together(first, second, read):
                continue
            theirs, their_util = devices(ofacts), _util(ofacts)
            if theirs is None or their_util is None or not (mine & theirs):
                continue
            peers.append(other.id)
            total += their_util
        if peers:
            # an equal share each, leaving room for every engine's CUDA context
            share = int(0.92 / (len(peers) + 1) * 100) / 100
            facts.setdefault("launch", {}).update({"gpu_shared_with": peers, "gpu_shared_util": round(total, 3),
                                                   "gpu_share_fit": share})
