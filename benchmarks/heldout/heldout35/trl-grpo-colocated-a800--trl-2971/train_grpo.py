from datasets import load_dataset
from trl import GRPOConfig, GRPOTrainer, TrlParser


def reward_len(completions, **kwargs):
    return [-abs(200 - len(c)) for c in completions]


if __name__ == "__main__":
    parser = TrlParser((GRPOConfig,))
    (args,) = parser.parse_args_and_config()
    ds = load_dataset("trl-lib/tldr", split="train")
    trainer = GRPOTrainer(model="meta-llama/Llama-2-13b-hf", reward_funcs=reward_len, args=args, train_dataset=ds)
    trainer.train()
