from vllm import LLM

llm = LLM(model="facebook/opt-125m", kv_cache_dtype="fp8_e5m2")
print(llm.generate("Hello, my name is")[0].outputs[0].text)
