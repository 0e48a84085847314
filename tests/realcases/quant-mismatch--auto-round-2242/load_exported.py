from vllm import LLM, SamplingParams

llm = LLM(model="./tmp_autoround", quantization="auto-round", gpu_memory_utilization=0.8)
print(llm.generate(["Hello"], SamplingParams(max_tokens=16))[0].outputs[0].text)
