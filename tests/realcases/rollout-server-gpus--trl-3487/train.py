from datasets import load_dataset
from peft import LoraConfig
from trl import GRPOConfig, GRPOTrainer

dataset = load_dataset("trl-lib/tldr", split="train")


def reward_len(completions, **kwargs):
    return [-abs(100 - len(c)) for c in completions]


peft_config = LoraConfig(r=16, lora_alpha=32, target_modules=["q_proj", "k_proj", "v_proj", "o_proj"])
args = GRPOConfig(output_dir="out", use_vllm=True, beta=0.04, temperature=0.9, top_p=1.0)
trainer = GRPOTrainer(model="Qwen/Qwen3-4B", reward_funcs=reward_len, args=args, train_dataset=dataset,
                      peft_config=peft_config)
trainer.train()
