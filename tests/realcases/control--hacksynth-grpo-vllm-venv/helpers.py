from unsloth import FastLanguageModel


def get_model(model_id):
    # Unsloth's fast_inference builds a vLLM engine inside the training process
    model, tokenizer = FastLanguageModel.from_pretrained(
        model_name=model_id,
        max_seq_length=8192,
        load_in_4bit=True,
        fast_inference=True,
        max_lora_rank=32,
        gpu_memory_utilization=0.6,
    )
    return model, tokenizer
