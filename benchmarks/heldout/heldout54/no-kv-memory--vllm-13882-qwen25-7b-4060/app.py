# The reporter's factory builds one vLLM engine from a config dict; this is the same call.
from vllm import LLM, SamplingParams

config = {
    "model": "Qwen/Qwen2.5-7B-Instruct-AWQ",
    "gpu_memory_utilization": 0.70,
    "max_model_len": 4096,
}

if __name__ == "__main__":
    llm = LLM(**config)
    print(llm.generate(["Hello"], SamplingParams(max_tokens=32)))
