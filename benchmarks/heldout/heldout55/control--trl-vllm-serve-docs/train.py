from datasets import load_dataset
from trl import GRPOConfig, GRPOTrainer

dataset = load_dataset("trl-lib/tldr", split="train")


def reward_short(completions, **kwargs):
    # shorter completions score higher
    return [-float(len(c)) for c in completions]


args = GRPOConfig(output_dir="qwen-grpo", use_vllm=True)
trainer = GRPOTrainer(model="Qwen/Qwen2.5-7B", args=args, reward_funcs=reward_short, train_dataset=dataset)
trainer.train()
