from vllm import LLM

llm = LLM(model="huggyllama/llama-30b", tensor_parallel_size=3)
print(llm.generate("Hello")[0].outputs[0].text)
