from datasets import load_dataset
from trl import GRPOConfig, GRPOTrainer

ds = load_dataset("trl-lib/tldr", split="train")


def reward_len(completions, **kwargs):
    return [-abs(50 - len(c)) for c in completions]


args = GRPOConfig(output_dir="grpo-out", use_vllm=True, per_device_train_batch_size=4, num_generations=4)
trainer = GRPOTrainer(model="Qwen/Qwen2.5-0.5B-Instruct", reward_funcs=reward_len, args=args, train_dataset=ds)
trainer.train()
