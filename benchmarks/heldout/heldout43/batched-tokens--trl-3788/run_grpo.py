from datasets import load_dataset
from transformers import AutoModelForCausalLM, AutoTokenizer
from trl import GRPOConfig, GRPOTrainer

MODEL = "meta-llama/Llama-3.1-8B-Instruct"


def reward_len(completions, **kwargs):
    return [-abs(200 - len(c)) for c in completions]


def main():
    raw_datasets = load_dataset("json", data_files={"train": "train.jsonl", "valid": "valid.jsonl"})
    tokenizer = AutoTokenizer.from_pretrained(MODEL)
    model = AutoModelForCausalLM.from_pretrained(MODEL)
    training_args = GRPOConfig(
        output_dir="/opt/ml/model",
        max_prompt_length=6144,
        max_completion_length=2048,
        use_vllm=True,
        vllm_mode="colocate",
        bf16=True,
        per_device_train_batch_size=1,
        num_generations=8,
    )
    grpo_trainer = GRPOTrainer(
        model,
        args=training_args,
        reward_funcs=[reward_len],
        train_dataset=raw_datasets["train"],
        eval_dataset=raw_datasets["valid"],
        processing_class=tokenizer,
    )
    grpo_trainer.train()


if __name__ == "__main__":
    main()
