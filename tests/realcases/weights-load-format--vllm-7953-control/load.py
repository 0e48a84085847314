from vllm import LLM

llm = LLM(model="TinyLlama/TinyLlama-1.1B-Chat-v1.0", load_format="safetensors")
print(llm.generate("Hello"))
