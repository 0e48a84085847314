# GRPO with Unsloth on a Qwen3 model; vLLM generates the rollouts (fast_inference)
from unsloth import FastLanguageModel

model, tokenizer = FastLanguageModel.from_pretrained(
    model_name="Qwen/Qwen3-4B-Base",
    max_seq_length=2048,
    load_in_4bit=False,
    fast_inference=True,
    max_lora_rank=32,
    gpu_memory_utilization=0.6,
)
model = FastLanguageModel.get_peft_model(model, r=32, lora_alpha=64)
