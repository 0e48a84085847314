from datasets import load_dataset
from trl import GRPOConfig, GRPOTrainer

dataset = load_dataset("trl-lib/tldr", split="train")


def reward_len(completions, **kwargs):
    # prefer completions close to 20 characters
    return [-abs(20 - len(c)) for c in completions]


args = GRPOConfig(
    output_dir="qwen2.5-0.5b-grpo-colocate",
    use_vllm=True,
    vllm_mode="colocate",
    vllm_gpu_memory_utilization=0.3,
    per_device_train_batch_size=8,
    num_generations=8,
    max_completion_length=128,
    logging_steps=10,
    # generation_kwargs left unset
)

trainer = GRPOTrainer(
    model="Qwen/Qwen2.5-0.5B-Instruct",
    reward_funcs=reward_len,
    args=args,
    train_dataset=dataset,
)
trainer.train()
