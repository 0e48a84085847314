from vllm import LLM

llm = LLM(model="facebook/opt-125m", dtype="half")
print(llm.generate("The capital of France is")[0].outputs[0].text)
