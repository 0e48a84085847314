from vllm import LLM, SamplingParams

llm = LLM(model="meta-llama/Llama-3.2-1B")
print(llm.generate(["The capital of France is"], SamplingParams(max_tokens=8)))
