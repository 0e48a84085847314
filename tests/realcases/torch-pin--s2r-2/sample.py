from vllm import LLM, SamplingParams

llm = LLM(model="Qwen/Qwen2.5-Math-7B", tensor_parallel_size=1)
outputs = llm.generate(["1 + 1 = ?"], SamplingParams(temperature=0.0, max_tokens=512))
