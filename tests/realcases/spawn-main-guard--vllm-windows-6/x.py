from vllm import LLM

llm = LLM(model="facebook/opt-125m")
print(llm.generate("Hello, my name is")[0].outputs[0].text)
