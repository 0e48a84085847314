from vllm import LLM, SamplingParams

llm = LLM(model="./models/kullm-polyglot-5.8b-v2")
print(llm.generate(["안녕하세요"], SamplingParams(max_tokens=32))[0].outputs[0].text)
