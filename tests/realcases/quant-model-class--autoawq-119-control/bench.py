from vllm import LLM, SamplingParams

llm = LLM(model="./results/run5/merged-awq", quantization="AWQ")
params = SamplingParams(max_tokens=500, temperature=0)
print(llm.generate(["Summarise the ticket below."], params))
