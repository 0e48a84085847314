from vllm import LLM, SamplingParams
from vllm.lora.request import LoRARequest

BASE = "Qwen/Qwen3-1.7B"
ADAPTER_EARLY = "./output/Qwen3-cls/checkpoint-100"
ADAPTER_LATE = "./output/Qwen3-cls/checkpoint-1120"


def main():
    llm = LLM(
        model=BASE,
        enable_lora=True,
        max_model_len=2048,
        dtype="auto",
        gpu_memory_utilization=0.7,
    )
    params = SamplingParams(temperature=0.7, top_p=0.8, top_k=50, max_tokens=2048)
    prompts = ["Classify the activity described in the text."]
    for i, path in enumerate((ADAPTER_EARLY, ADAPTER_LATE), start=1):
        out = llm.generate(prompts, params, lora_request=LoRARequest(f"adapter_v{i}", i, path))
        print(out[0].outputs[0].text)


if __name__ == "__main__":
    main()
