"""An encoder-cache producer of disaggregated multimodal serving runs only the vision encoder and
allocates no KV cache: vLLM's examples (0.12.0 examples/online_serving/disaggregated_encoder/)
start it at gpu_memory_utilization 0.01, which the KV checks read as "no memory for the cache"."""
from __future__ import annotations

import pytest

from vllm_kb.engine.audit import audit

SERVE = """vllm serve Qwen/Qwen2.5-VL-3B-Instruct --gpu-memory-utilization 0.01 --enforce-eager \\
    --ec-transfer-config '{{"ec_connector": "ECSharedStorageConnector", "ec_role": "{role}", "ec_connector_extra_config": {{"shared_storage_path": "/tmp/ec"}}}}'
"""


@pytest.mark.parametrize("role, p0", [("ec_producer", False), ("ec_consumer", True)])
def test_an_encoder_only_worker_is_not_sized_for_a_kv_cache(tmp_path, role, p0):
    (tmp_path / "serve.sh").write_text(SERVE.format(role=role))
    (tmp_path / "requirements.txt").write_text("vllm==0.12.0\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB").sites
    kv_p0 = [r.check.id for r in sr.results if r.needs_change and r.priority == "P0" and r.check.id in ("L15", "L16")]
    assert bool(kv_p0) is p0
