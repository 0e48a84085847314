from vllm import LLM, SamplingParams

llm = LLM(model="meta-llama/Meta-Llama-3-8B-Instruct")
print(llm.generate(["Hello"], SamplingParams(max_tokens=16)))
