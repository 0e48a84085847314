import argparse

from vllm import LLM, SamplingParams
from vllm.lora.request import LoRARequest


def load_model():
    llm = LLM(model=args.model, gpu_memory_utilization=0.8, max_model_len=4096,
              enable_lora=bool(args.lora_path))
    params = SamplingParams(temperature=0, max_tokens=2048)
    lora = None
    if args.lora_path:
        lora = LoRARequest(lora_name="adapter", lora_int_id=1, lora_path=args.lora_path)
    return llm, params, lora


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", "-m", type=str, default="meta-llama/Llama-2-7b-hf")
    parser.add_argument("--lora_path", "-lp", type=str, default=None)
    args = parser.parse_args()
    llm, params, lora = load_model()
    print(llm.generate(["Question: 1+1?"], params, lora_request=lora))
