from vllm import LLM, SamplingParams

llm = LLM(model="Qwen/Qwen2.5-7B-Instruct", gpu_memory_utilization=0.6)
print(llm.generate(["hello"], SamplingParams(max_tokens=16)))
