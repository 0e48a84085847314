import os
os.environ["VLLM_ATTENTION_BACKEND"] = "TRITON_ATTN"

from vllm import LLM, SamplingParams

if __name__ == "__main__":
    llm = LLM(model="Qwen/Qwen2.5-0.5B-Instruct", gpu_memory_utilization=0.5)
    out = llm.generate(["Hello, my name is"], SamplingParams(max_tokens=16))
    print(out[0].outputs[0].text)
