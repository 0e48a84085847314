"""Engines that share a GPU: two vLLM launches of one project that run at the same time on an
overlapping set of devices. `gpu_memory_utilization` is a fraction of the device's *total*
memory per instance, so the fractions of co-located engines must sum below 1 (minus what CUDA
contexts take); from 0.9.1 the second engine refuses to start ("Free memory on device … is less
than desired GPU memory utilization"). Evidence that two launches run together is required, not
assumed: a shell command put in the background (`… &`) before the other, services of one compose
file (not two under disjoint `profiles:`, nor two of a profile that gates three or more engines — a
menu started one model at a time —, nor two publishing one host port; `device_ids` name their GPUs),
or engines built in the same Python scope and both still held (colocation_py)."""
from __future__ import annotations

import re
from typing import Any, Callable

from vllm_kb.engine.check import colocation_py, colocation_sh

ENGINE_KINDS = frozenset({"vllm serve", "api_server", "legacy api_server", "LLM()", "EngineArgs()", "AsyncEngineArgs()"})
# a serving tool's launch whose engine lives on in the tool's server: two launches to one server stay up together
TOOL_KINDS = frozenset({"xinference launch", "xinference launch_model()", "xinference REST launch"})


def devices(facts: dict, container: dict | None = None) -> set[int] | None:
    """Physical GPU ids the engine uses: the first world-size ids of CUDA_VISIBLE_DEVICES (or of
    a container's `--gpus device=…`, or 0…n when neither says); None when they cannot be told."""
    env, engine = facts.get("env") or {}, facts.get("engine") or {}
    world = 1
    for k in ("tensor_parallel_size", "pipeline_parallel_size"):
        v = engine.get(k)
        world *= v if isinstance(v, int) and not isinstance(v, bool) and v > 0 else 1
    cvd = env.get("CUDA_VISIBLE_DEVICES")
    c = container or {}
    named = re.search(r"device=([\d,]+)", str(c.get("gpus") or c.get("device_ids") or "").replace('"', "").replace("'", ""))
    if cvd is None and named:
        # the container sees its devices renumbered from 0; the ids here are the host's
        host = [int(x) for x in named.group(1).split(",") if x]
        return set(host[:world]) if host else None
    if cvd is None:
        return set(range(world))
    ids = [x.strip() for x in cvd.split(",") if x.strip()]
    if not ids or not all(x.isdigit() for x in ids):
        return None  # GPU UUIDs, $VARS, -1
    return {int(x) for x in ids[:world]}


def _devices(site, facts: dict) -> set[int] | None:
    """The GPU ids of an engine; for a serving tool's launch only those its own option names (Xinference
    --gpu-idx): without it the tool's worker gives each LLM GPUs no other LLM holds."""
    if site.kind in TOOL_KINDS:
        ids = (site.launch or {}).get("tool_gpu_ids")
        return set(ids) if ids else None
    return devices(facts, site.container)


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
    if (a.launch or {}).get("documented") != (b.launch or {}).get("documented"):
        return False  # a README's fences are alternatives the reader picks from (engine/scan/readme_fences.py)
    if a.kind in TOOL_KINDS and b.kind in TOOL_KINDS:
        # `xinference launch` returns once the model is placed, and the server keeps it: a later launch
        # to the same server runs beside it (xorbitsai/inference#4637)
        if (a.launch or {}).get("tool_endpoint") != (b.launch or {}).get("tool_endpoint"):
            return False
        # a model terminated between the two launches (`xinference terminate`, Client.terminate_model) is gone
        between = "\n".join((read(a.file) or "").splitlines()[(a.end_line or a.line):b.line - 1])
        return re.search(r"xinference\s+terminate\b|\.terminate_model\(", between) is None
    if a.syntax == b.syntax == "compose":
        pa, pb = (a.container or {}).get("profiles"), (b.container or {}).get("profiles")
        if pa and pb and not set(pa) & set(pb):
            return False  # each starts only under its own profile: nothing says both are activated
        if pa and pb and set(map(str, pa)) & set(map(str, pb)) <= set((a.container or {}).get("menus") or ()):
            return False  # a profile gating three or more GPU services is a menu (compose.py _menu_profiles)
        hosts = [{str(p[0]) for p in (c.container or {}).get("ports") or () if isinstance(p, (list, tuple)) and p and p[0]}
                 for c in (a, b)]
        if hosts[0] & hosts[1]:
            return False  # one host port published by both: the second cannot start beside the first
        return (a.source or {}).get("service") != (b.source or {}).get("service")
    if a.syntax == b.syntax == "python-call":
        if (a.launch or {}).get("engine_per_call") or (b.launch or {}).get("engine_per_call"):
            return False  # a wrapper that frees its engine before each call returns (curator's offline processor)
        if (a.launch or {}).get("engine_in_task") or (b.launch or {}).get("engine_in_task"):
            return False  # a config's model, built in a task process on GPUs of its own (OpenCompass's runners)
        return a.kind == b.kind == "LLM()" and colocation_py.alive_together(read(a.file) or "", a.line, b.line)
    if a.syntax == b.syntax == "cli":
        if (a.launch or {}).get("call") and (a.launch or {}).get("call") == (b.launch or {}).get("call"):
            return False  # commands one call line runs, one of them (a dispatcher's arms, an if's branches: scripts.py)
        if colocation_sh.exclusive(read(a.file) or "", a.line, b.line):
            return False  # one arm of an `if`/`case` each: at most one of them runs
        return _backgrounded(a, read) or bool((a.container or {}).get("detach"))
    return False


def _apart(a, fa: dict, b, fb: dict) -> bool:
    """Two engines that cannot hold one device together whatever runs them: alternatives written for
    different hardware (a Gaudi service beside a ROCm one), a container handed no device at all (a
    CPU image, a build-only compose service: unknown is no evidence of a shared GPU), or two
    containers of one literal name (Docker refuses the second while the first exists)."""
    pa, pb = ((f.get("site") or {}).get("platform") for f in (fa, fb))
    if pa and pb and pa != pb:
        return True
    ca, cb = a.container or {}, b.container or {}
    if any(c.get("tool") in ("compose", "docker run") and not c.get("device_opts") and not c.get("gpus")
           and not c.get("options_unknown") for c in (ca, cb)):
        return True
    na, nb = ca.get("name"), cb.get("name")
    return bool(na) and na == nb and "$" not in str(na)


def annotate(items: list[tuple[Any, dict]], read: Callable[[str], str | None]) -> None:
    """Add `launch.gpu_shared_with` (the other sites) and `launch.gpu_shared_util` (the sum of
    every co-located engine's fraction, this one included) to each site sharing a GPU."""
    try:
        _annotate(items, read)
    finally:
        colocation_py.forget()


def _annotate(items: list[tuple[Any, dict]], read: Callable[[str], str | None]) -> None:
    engines = [(s, f) for s, f in items if s.kind in ENGINE_KINDS or s.kind in TOOL_KINDS]
    # only engines of one file run together (_together): each is compared with those of its file
    # alone, not with every engine of a project that may have thousands
    by_file: dict[str, list[int]] = {}
    for i, (site, _f) in enumerate(engines):
        by_file.setdefault(site.file, []).append(i)
    for i, (site, facts) in enumerate(engines):
        if len(by_file[site.file]) < 2:
            continue
        mine = _devices(site, facts)
        util = _util(facts)
        if mine is None or util is None:
            continue
        peers, total = [], util
        for j in by_file[site.file]:
            other, ofacts = engines[j]
            if i == j:
                continue
            first, second = (other, site) if j < i else (site, other)
            if _apart(site, facts, other, ofacts) or not _together(first, second, read):
                continue
            theirs, their_util = _devices(other, ofacts), _util(ofacts)
            if theirs is None or their_util is None or not (mine & theirs):
                continue
            peers.append(other.id)
            total += their_util
        if peers:
            # an equal share each, leaving room for every engine's CUDA context
            share = int(0.92 / (len(peers) + 1) * 100) / 100
            facts.setdefault("launch", {}).update({"gpu_shared_with": peers, "gpu_shared_util": round(total, 3),
                                                   "gpu_share_fit": share, "gpu_shared_others": round(total - util, 3)})
            left = _kv_after_others(facts.get("memory") or {}, total - util)
            if left is not None:
                facts["launch"]["kv_after_others_gib"] = left


def _kv_after_others(memory: dict, others: float) -> float | None:
    """The KV cache this engine is left when the others already hold their shares and its release
    sizes the cache against everything on the GPU (L16 says which releases): its own estimate
    less 90% of the others' shares of the GPU (an engine holds a little less than its share once
    its profile run's activations are freed)."""
    got = [memory.get(k) for k in ("kv_cache_gib", "requested_per_gpu_gib", "gpu_memory_utilization")]
    nums = [float(v) for v in got if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if len(nums) != 3:
        return None
    kv, requested, util = nums
    return round(kv - 0.9 * others * requested / util, 2) if util > 0 else None


def _seen(facts: dict) -> set[int] | None:
    """Every GPU id a process sees: CUDA_VISIBLE_DEVICES, else all of the machine's (None: unknown)."""
    cvd = (facts.get("env") or {}).get("CUDA_VISIBLE_DEVICES")
    if cvd is None:
        count = (facts.get("gpu") or {}).get("count")
        return set(range(count)) if isinstance(count, int) and count > 0 else {-1}
    ids = [x.strip() for x in cvd.split(",") if x.strip()]
    return {int(x) for x in ids} if ids and all(x.isdigit() for x in ids) else None


_LOCAL = (None, "", "localhost", "127.0.0.1", "0.0.0.0", "::1")


def _local_server(site) -> bool:
    """Whether the trainer connects to a rollout server on its own machine (no host, or a local one;
    every host of a list, as ms-swift's `--vllm_server_host <node1_ip> <node2_ip>` takes)."""
    keys = site.framework_keys
    url = str(keys.get("vllm_server_base_url") or "")
    hosts = keys.get("vllm_server_host")
    hosts = hosts if isinstance(hosts, (list, tuple)) else str(hosts).split() if hosts is not None else [None]
    local_url = not url or any(h in url for h in ("//localhost", "//127.0.0.1", "//0.0.0.0"))
    return local_url and all(h in _LOCAL for h in hosts or [None])


def _same_host_devices(server: dict, trainer: dict) -> bool:
    """Two files (the server's script and the trainer's, or its launcher) compared only when the
    server names its GPUs and the trainer's GPUs are known: named too, or the machine has one GPU."""
    one_gpu = (trainer.get("gpu") or {}).get("count") == 1
    return ("CUDA_VISIBLE_DEVICES" in (server.get("env") or {})
            and ("CUDA_VISIBLE_DEVICES" in (trainer.get("env") or {}) or one_gpu))


def trainer_overlap(items: list[tuple[Any, dict]]) -> None:
    """A rollout server and the trainer that talks to it, started by one script on overlapping
    GPUs, or by two that each name the same GPUs of one machine: `launch.trainer_shared_gpus` on
    the server. The trainer takes every GPU it sees."""
    by_id = {s.id: (s, f) for s, f in items}
    for site, facts in items:
        if not site.peer or site.engine_elsewhere or site.peer not in by_id:
            continue
        trainer, tfacts = by_id[site.peer]
        # a trainer that talks to servers on other nodes (ms-swift's multi-node server mode, one
        # script listing every node's command) shares no GPU with them, whatever ids each names
        if not trainer.engine_elsewhere or not _local_server(trainer) or (trainer.file != site.file and not _same_host_devices(facts, tfacts)):
            continue
        mine, theirs = devices(facts), _seen(tfacts)
        if mine is None or theirs is None:
            continue
        shared = sorted(mine if theirs == {-1} else mine & theirs)
        if shared:
            facts.setdefault("launch", {}).update({"trainer_shared_gpus": shared, "trainer": trainer.id})
