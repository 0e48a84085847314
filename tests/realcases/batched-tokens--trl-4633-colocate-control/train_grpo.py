from datasets import load_dataset
from trl import GRPOConfig, GRPOTrainer
from trl.rewards import accuracy_reward

dataset = load_dataset("trl-lib/DeepMath-103K", split="train[:100]")

trainer = GRPOTrainer(
    model="Qwen/Qwen3-0.6B",
    reward_funcs=accuracy_reward,
    args=GRPOConfig(use_vllm=True, vllm_mode="colocate"),
    train_dataset=dataset,
)
trainer.train()
