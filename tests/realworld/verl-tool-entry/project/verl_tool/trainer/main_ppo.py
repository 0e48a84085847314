"""PPO with tool calls: verl's trainer with an agent loop around the rollout."""
import os

import hydra
import ray

from verl_tool.trainer.ppo.ray_trainer import AgentRayPPOTrainer


@hydra.main(config_path="config", config_name="ppo_trainer", version_base=None)
def main(config):
    if not ray.is_initialized():
        ray.init(runtime_env={"env_vars": {"VLLM_USE_V1": os.getenv("VLLM_USE_V1", "1")}})
    trainer = AgentRayPPOTrainer(config=config)
    trainer.init_workers()
    trainer.fit()


if __name__ == "__main__":
    main()
