from datasets import load_dataset
from trl import GRPOConfig, GRPOTrainer


def reward_len(completions, **kwargs):
    return [-abs(100 - len(c)) for c in completions]


args = GRPOConfig(output_dir="out", use_vllm=True, vllm_mode="server", vllm_server_host="10.0.0.5",
                  vllm_server_port=8000, bf16=True)
trainer = GRPOTrainer(model="Qwen/Qwen2.5-7B-Instruct", reward_funcs=reward_len, args=args,
                      train_dataset=load_dataset("trl-lib/tldr", split="train[:1%]"))
trainer.train()
