# GRPO with Unsloth; vLLM generates the rollouts beside training (fast_inference)
from unsloth import FastLanguageModel, PatchFastRL

PatchFastRL("GRPO", FastLanguageModel)

model, tokenizer = FastLanguageModel.from_pretrained(
    model_name="Qwen/Qwen2.5-3B-Instruct",
    max_seq_length=1024,
    load_in_4bit=True,
    fast_inference=True,
    max_lora_rank=64,
    gpu_memory_utilization=0.5,
)
model = FastLanguageModel.get_peft_model(model, r=64, lora_alpha=64)
