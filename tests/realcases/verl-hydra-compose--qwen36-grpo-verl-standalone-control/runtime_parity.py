import argparse

import hydra
import ray
from verl.workers.rollout.llm_server import LLMServerManager


def build_config(args):
    overrides = [
        f"data.train_files={args.dataset}",
        f"actor_rollout_ref.model.path={args.model}",
        "actor_rollout_ref.rollout.name=vllm",
        "actor_rollout_ref.rollout.mode=async",
        f"actor_rollout_ref.rollout.tensor_model_parallel_size={args.tensor_parallel_size}",
        f"actor_rollout_ref.rollout.gpu_memory_utilization={args.gpu_memory_utilization}",
        f"actor_rollout_ref.rollout.max_model_len={args.max_context_tokens}",
        "actor_rollout_ref.rollout.enable_prefix_caching=True",
        "actor_rollout_ref.rollout.enforce_eager=True",
    ]
    with hydra.initialize_config_dir(config_dir="/verl/verl/trainer/config", version_base=None):
        return hydra.compose(config_name="ppo_trainer", overrides=overrides)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    for name in ("dataset", "model", "tensor_parallel_size", "gpu_memory_utilization", "max_context_tokens"):
        parser.add_argument(f"--{name}")
    ray.init()
    servers = LLMServerManager(build_config(parser.parse_args()))
    servers.start()
