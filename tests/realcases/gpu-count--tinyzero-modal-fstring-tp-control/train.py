import subprocess


def train(train_args: dict, model_name: str, out_dir: str):
    rollout_tp = int(train_args.get("tensor_model_parallel_size", 1))
    gpu_mem_util = float(train_args.get("gpu_memory_utilization", 0.4))
    cmd = [
        "python",
        "-m",
        "verl.trainer.main_ppo",
        "algorithm.adv_estimator=grpo",
        f"actor_rollout_ref.model.path={model_name}",
        f"actor_rollout_ref.rollout.tensor_model_parallel_size={rollout_tp}",
        "actor_rollout_ref.rollout.name=vllm",
        f"actor_rollout_ref.rollout.gpu_memory_utilization={gpu_mem_util}",
        "trainer.n_gpus_per_node=1",
        "trainer.nnodes=1",
        f"trainer.default_local_dir={out_dir}",
    ]
    subprocess.run(cmd, check=False)
