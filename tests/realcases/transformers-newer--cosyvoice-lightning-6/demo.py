from vllm import LLM, SamplingParams

llm = LLM(model="FunAudioLLM/CosyVoice2-0.5B", gpu_memory_utilization=0.5)
print(llm.generate(["hello"], SamplingParams(max_tokens=16)))
