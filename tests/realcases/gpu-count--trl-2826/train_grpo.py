from datasets import load_dataset
from trl import GRPOConfig, GRPOTrainer


def reward_len(completions, **kwargs):
    return [-abs(20 - len(c)) for c in completions]


dataset = load_dataset("trl-lib/tldr", split="train")
args = GRPOConfig(output_dir="grpo-out", use_vllm=True, vllm_gpu_memory_utilization=0.5,
                  per_device_train_batch_size=4, num_generations=4, logging_steps=10)
trainer = GRPOTrainer(model="Qwen/Qwen2.5-1.5B-Instruct", reward_funcs=reward_len,
                      args=args, train_dataset=dataset)
trainer.train()
