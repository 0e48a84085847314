"""startup facts of a data-parallel launch's own options across nodes (L248) and of its NUMA binding (L255).

EngineArgs.create_engine_config checks the data-parallel launch options before it builds the
parallel configuration, from 0.11.1 (--nnodes / --node-rank arrived then): hybrid and external load
balancing together, --nnodes above 1 with a data-parallel backend other than mp, a world size
(DP × PP × TP, × PCP from 0.30.0) that --nnodes does not divide, a --node-rank outside
[0, nnodes), then an external data-parallel rank without a rank or with a local size other than 1,
and (0.27.0+) fault tolerance without external load balancing. Asserts up to 0.26.0 (vllm/engine/arg_utils.py 0.11.1:1459-1481, 0.26.0:1967-1989),
ValueErrors "Invalid data-parallel launch options: …" from 0.27.0 (0.27.0:2021-2055,
0.34.0:2417-2455). A value the scan cannot read is absent from `engine`, so nothing is judged on it."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.check.startup_common import as_int
from vllm_kb.engine.kb.versions import Version, try_parse


def dp_launch_facts(engine: dict, version: str, unread: frozenset[str] | set[str] = frozenset()) -> dict[str, Any]:
    """The first refusal the options meet, in vLLM's order, with what its message needs."""
    v = try_parse(version)
    if v is None or v < Version("0.11.1"):
        return {}
    if engine.get("data_parallel_hybrid_lb") is True and engine.get("data_parallel_external_lb") is True:
        return {"dp_launch_refused": "hybrid_external"}
    nnodes = as_int(engine.get("nnodes"))
    if not nnodes or nnodes <= 1:
        return _external(engine, v, unread, inferred=False)
    # unwritten, the backend is the catalog's default "mp" (ParallelConfig.data_parallel_backend in
    # 0.11.1-0.34.0, config/parallel.py 0.11.1:91, 0.34.0:175; nothing reassigns it before the check),
    # which passes; only a written non-mp backend is refused
    backend = engine.get("data_parallel_backend")
    if not isinstance(backend, str):
        return {}  # `--data-parallel-backend $B`: the next checks run only on mp
    if backend != "mp":
        return {"dp_launch_refused": "nnodes_backend", "dp_backend": backend}
    sizes = ["data_parallel_size", "pipeline_parallel_size", "tensor_parallel_size"]
    if v >= Version("0.30.0"):  # prefill context parallelism counts in the world size from 0.30.0
        sizes.append("prefill_context_parallel_size")
    world = 1
    for name in sizes:
        size = as_int(engine.get(name) if engine.get(name) is not None else 1)
        if not size or size < 1:
            return {}
        world *= size
    if world % nnodes:
        return {"dp_launch_refused": "world_nnodes", "dp_world_size": world}
    rank = as_int(engine.get("node_rank"))
    if rank is not None and (rank >= nnodes or (rank < 0 and v >= Version("0.27.0"))):
        return {"dp_launch_refused": "node_rank", "dp_node_rank_max": nnodes - 1}
    if rank is None and "node_rank" in unread:
        return {}
    dp = as_int(engine.get("data_parallel_size") if engine.get("data_parallel_size") is not None else 1)
    return _external(engine, v, unread, inferred=bool(dp and dp > 1 and engine.get("data_parallel_external_lb") is True))


def _external(engine: dict, v: Version, unread, inferred: bool) -> dict[str, Any]:
    """After the node checks: fault tolerance without external load balancing (0.27.0+), then an
    external data-parallel rank (--data-parallel-external-lb or --data-parallel-rank) that has no rank
    or a local size other than 1 (0.11.1+; 0.27.0:2062/2069, 0.34.0:2486/2503). Under --nnodes with
    DP above 1 the rank of an external launch is inferred from --node-rank."""
    if {"data_parallel_rank", "data_parallel_external_lb", "enable_fault_tolerance"} & set(unread):
        return {}
    rank = engine.get("data_parallel_rank")
    external = engine.get("data_parallel_external_lb") is True or rank is not None
    if engine.get("enable_fault_tolerance") is True and not external and v >= Version("0.27.0"):
        return {"dp_launch_refused": "fault_tolerance"}
    if not external:
        return {}
    if rank is None and not inferred:
        return {"dp_launch_refused": "external_no_rank"}
    local = engine.get("data_parallel_size_local")
    if "data_parallel_size_local" not in unread and as_int(local) is not None and local != 1:
        return {"dp_launch_refused": "external_local", "dp_size_local": local}
    return {}


_CPUSET = re.compile(r"^\d+(?:-\d+)?(?:,\d+(?:-\d+)?)*$")  # vllm/config/parallel.py _NUMACTL_CPUSET_PATTERN


def numa_facts(engine: dict, version: str, unread: frozenset[str] | set[str] = frozenset()) -> dict[str, Any]:
    """L255: ParallelConfig's field validators of --numa-bind-nodes and --numa-bind-cpus (0.20.0+,
    vllm/config/parallel.py 0.20.0:378-405, 0.34.0:528-555), then its model validator, which from
    0.34.0 refuses either list beside --no-numa-bind (0.34.0:597). The first refusal, by field order."""
    v = try_parse(version)
    if v is None or v < Version("0.20.0") or {"numa_bind_nodes", "numa_bind_cpus", "numa_bind"} & set(unread):
        return {}
    nodes, cpus = engine.get("numa_bind_nodes"), engine.get("numa_bind_cpus")
    if isinstance(nodes, list):
        if not nodes:
            return {"numa_refused": "nodes_empty"}
        values = [int(n) if isinstance(n, (int, str)) and str(n).lstrip("-").isdigit() else None for n in nodes]
        if any(n is not None and n < 0 for n in values):
            return {"numa_refused": "nodes_negative", "numa_value": ",".join(str(n) for n in nodes)}
    if isinstance(cpus, list):
        if not cpus:
            return {"numa_refused": "cpus_empty"}
        for cpuset in cpus:
            text = str(cpuset)
            if not text:
                return {"numa_refused": "cpu_entry_empty"}
            if not _CPUSET.fullmatch(text):
                return {"numa_refused": "cpu_syntax", "numa_value": text}
            if any(int(a) > int(b) for a, b in (p.split("-", 1) for p in text.split(",") if "-" in p)):
                return {"numa_refused": "cpu_descending", "numa_value": text}
    if (isinstance(nodes, list) or isinstance(cpus, list)) and engine.get("numa_bind") is False \
            and v >= Version("0.34.0"):
        return {"numa_refused": "numa_off"}
    return {}
