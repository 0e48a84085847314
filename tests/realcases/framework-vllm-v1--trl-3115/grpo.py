from datasets import load_dataset
from trl import GRPOConfig, GRPOTrainer


def reward_short(completions, **kwargs):
    return [-len(c) / 100 for c in completions]


args = GRPOConfig(output_dir="qwen7b-grpo", use_vllm=True, vllm_gpu_memory_utilization=0.9, vllm_max_model_len=4096,
                  bf16=True, per_device_train_batch_size=2, num_generations=8, max_completion_length=512)
trainer = GRPOTrainer(model="Qwen/Qwen2.5-7B-Instruct", reward_funcs=reward_short, args=args,
                      train_dataset=load_dataset("trl-lib/tldr", split="train"))
trainer.train()
