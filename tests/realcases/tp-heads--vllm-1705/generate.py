from vllm import LLM, SamplingParams

llm = LLM(model="gpt2-xl", tensor_parallel_size=2)
print(llm.generate(["Hello, my name is"], SamplingParams(max_tokens=16)))
