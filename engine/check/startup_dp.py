"""startup facts of a data-parallel launch's own options across nodes (L248).

EngineArgs.create_engine_config checks the data-parallel launch options before it builds the
parallel configuration, from 0.11.1 (--nnodes / --node-rank arrived then): hybrid and external load
balancing together, --nnodes above 1 with a data-parallel backend other than mp, a world size
(DP × PP × TP, × PCP from 0.30.0) that --nnodes does not divide, and a --node-rank outside
[0, nnodes). Asserts up to 0.26.0 (vllm/engine/arg_utils.py 0.11.1:1459-1481, 0.26.0:1967-1989),
ValueErrors "Invalid data-parallel launch options: …" from 0.27.0 (0.27.0:2021-2055,
0.34.0:2417-2455). A value the scan cannot read is absent from `engine`, so nothing is judged on it."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.check.startup_common import as_int
from vllm_kb.engine.kb.versions import Version, try_parse


def dp_launch_facts(engine: dict, version: str) -> dict[str, Any]:
    """The first of the four refusals the options meet, in vLLM's order, with what its message needs."""
    v = try_parse(version)
    if v is None or v < Version("0.11.1"):
        return {}
    if engine.get("data_parallel_hybrid_lb") is True and engine.get("data_parallel_external_lb") is True:
        return {"dp_launch_refused": "hybrid_external"}
    nnodes = as_int(engine.get("nnodes"))
    if not nnodes or nnodes <= 1:
        return {}
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
    return {}
