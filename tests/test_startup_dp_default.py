"""L248 with an unwritten --data-parallel-backend: vLLM's default (ParallelConfig, "mp" in 0.11.1-0.34.0)
reaches the facts as the catalog's default and passes the backend check, so the node checks still run."""
from __future__ import annotations

import pytest

from vllm_kb.engine.check.startup_dp import dp_launch_facts
from vllm_kb.engine.kb.catalog import load


@pytest.mark.parametrize("version", ["0.11.1", "0.26.0", "0.27.0", "0.34.0"])
def test_default_backend_is_mp(version):
    engine = {k: v for k, v in load().defaults(version).items() if v is not None}
    assert engine["data_parallel_backend"] == "mp"
    got = dp_launch_facts({**engine, "nnodes": 3, "tensor_parallel_size": 8}, version)
    assert got == {"dp_launch_refused": "world_nnodes", "dp_world_size": 8}
    assert dp_launch_facts({**engine, "nnodes": 2, "tensor_parallel_size": 8}, version) == {}
