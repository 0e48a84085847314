"""Offline throughput of a chat model, as the tutorial beside it runs it (a copy of vLLM's own
benchmark script of that time)."""
import argparse
import time

from vllm import LLM, SamplingParams


def run_vllm(model: str, n: int, max_model_len: int, quantization_param_path=None, device: str = "cuda") -> float:
    llm = LLM(
        model=model,
        trust_remote_code=True,
        max_model_len=max_model_len,
        gpu_memory_utilization=0.9,
        kv_cache_dtype="auto",
        quantization_param_path=quantization_param_path,
        device=device,
        enable_prefix_caching=False,
    )
    prompts = ["Hello, my name is"] * n
    start = time.perf_counter()
    llm.generate(prompts, SamplingParams(max_tokens=128))
    return time.perf_counter() - start


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--model", default="THUDM/glm-4-9b-chat")
    a = p.parse_args()
    print(run_vllm(a.model, 100, 4096))
