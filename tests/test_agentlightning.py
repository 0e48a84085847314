"""`python -m agentlightning.verl key=value …`: Agent Lightning's verl trainer, a hydra main over verl's
PPO config that builds verl's workers with a vLLM rollout (johnson7788/RLDecisionAgent
backend/Agentlighting-rag/train.sh, eval73)."""

TRAIN = """#!/bin/bash
python -m agentlightning.verl \\
    algorithm.adv_estimator=grpo \\
    actor_rollout_ref.model.path=Qwen/Qwen3-1.7B \\
    actor_rollout_ref.rollout.name=vllm \\
    actor_rollout_ref.rollout.tensor_model_parallel_size=1 \\
    actor_rollout_ref.rollout.gpu_memory_utilization=0.8 \\
    trainer.n_gpus_per_node=1
"""


def test_the_agent_lightning_verl_trainer_is_a_verl_site(scanned):
    (site,) = scanned({"train.sh": TRAIN})
    assert (site.framework, site.kind, site.mode) == ("verl", "agentlightning.verl", "rlhf_colocate")
    assert site.settings["gpu_memory_utilization"].value == 0.8


def test_another_rollout_is_no_vllm_site(scanned):
    assert scanned({"train.sh": TRAIN.replace("rollout.name=vllm", "rollout.name=sglang")}) == []
