# GRPO against a separately started `trl vllm-serve` (TRL's default server mode)
from datasets import load_dataset
from trl import GRPOConfig, GRPOTrainer


def reward_len(completions, **kwargs):
    return [-abs(50 - len(c)) for c in completions]


args = GRPOConfig(output_dir="grpo-out", use_vllm=True, vllm_mode="server", per_device_train_batch_size=4)
trainer = GRPOTrainer(model="Qwen/Qwen2.5-0.5B-Instruct", reward_funcs=reward_len, args=args,
                      train_dataset=load_dataset("trl-lib/tldr", split="train"))
trainer.train()
