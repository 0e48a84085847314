"""OpenRLHF 0.8.8-0.9.4 set NCCL_CUMEM_ENABLE=0 in the policy actor whenever vLLM engines sync weights over NCCL,
and under vLLM 0.16+ the actor→vLLM NCCL group then cannot be set up (OpenRLHF #1193; 0.9.5 skips it for
vLLM >= 0.16): knowledge/frameworks/compat.yaml openrlhf-nccl-cumem-weight-sync, L43. 0.9.4's own vllm extra
pins vllm==0.16.0, so the declared range alone calls the pair valid."""
from __future__ import annotations

import pytest

from vllm_kb.engine.audit import audit

_RUN = """ray job submit --address=http://127.0.0.1:8265 -- python3 -m openrlhf.cli.train_ppo_ray \\
  --actor_num_nodes 1 --actor_num_gpus_per_node 4 --vllm_num_engines {engines} --vllm_tensor_parallel_size 1 {extra} \\
  --pretrain Qwen/Qwen3-4B --prompt_max_len 1024 --generate_max_len 1024 --async_train
"""


@pytest.mark.parametrize("openrlhf,vllm,engines,extra,p0", [
    ("0.9.4", "0.16.0", 2, "", True),  # the nccl backend is the default
    ("0.9.4", "0.16.0", 2, "--vllm_sync_backend nccl", True),
    ("0.9.0", "0.17.0", 2, "--vllm_sync_backend nccl", True),
    ("0.9.4", "0.16.0", 2, "--vllm_sync_backend gloo", False),  # no NCCL group for the weights
    ("0.9.5", "0.17.0", 2, "", False),  # 0.9.5 leaves NCCL_CUMEM_ENABLE alone from vLLM 0.16
])
def test_l43(tmp_path, openrlhf, vllm, engines, extra, p0):
    (tmp_path / "requirements.txt").write_text(f"openrlhf=={openrlhf}\nvllm=={vllm}\n")
    (tmp_path / "train.sh").write_text(_RUN.format(engines=engines, extra=extra))
    (sr,) = audit(tmp_path, gpu="H100-80GB x8").sites
    r = next(r for r in sr.results if r.check.id == "L43")
    hit = r.status == "recommended" and r.priority == "P0" and "NCCL_CUMEM_ENABLE" in r.reason_text("en")
    assert hit is p0, r.reason_text("en")
