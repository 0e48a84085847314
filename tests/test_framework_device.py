"""A framework's own device key names the accelerator its vLLM runs on: verl's `trainer.device=npu`
(the Ascend recipes of hicann/cann-recipes-train, https://github.com/hicann/cann-recipes-train, eval85)
puts the rollout on vllm-ascend, so the H100 an audit is given says nothing of its memory and the
CUDA refusals stay below P0, as for any site on another platform."""
from __future__ import annotations

import pytest

from vllm_kb.engine.audit import audit

RUN = ("python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo \\\n"
       "    actor_rollout_ref.model.path=Qwen/Qwen3-235B-A22B actor_rollout_ref.rollout.name=vllm \\\n"
       "    actor_rollout_ref.rollout.tensor_model_parallel_size=4 \\\n"
       "    actor_rollout_ref.rollout.gpu_memory_utilization=0.85 \\\n"
       "    trainer.device={device} trainer.n_gpus_per_node=16 trainer.nnodes=8\n")


@pytest.mark.parametrize("device,platform,p0", [("npu", "npu", False), ("cuda", "cuda", True)])
def test_verl_trainer_device_names_the_platform(tmp_path, device, platform, p0):
    (tmp_path / "requirements.txt").write_text("verl==0.5.0\nvllm==0.10.0\n")
    (tmp_path / "run.sh").write_text(RUN.format(device=device))
    (sr,) = audit(tmp_path, gpu="H100-80GB x8").sites
    assert sr.facts["site"]["platform"] == platform
    # 235B in bf16 over TP 4 is ≈110 GiB a device: past an H100, not a question for vllm-ascend's plugin
    assert any(r.priority == "P0" and r.check.id == "L16" for r in sr.results) is p0
