from vllm import LLM, SamplingParams

llm = LLM(model="Qwen/Qwen3-4B", gpu_memory_utilization=0.85)
print(llm.generate(["1 + 1 ="], SamplingParams(max_tokens=32)))
