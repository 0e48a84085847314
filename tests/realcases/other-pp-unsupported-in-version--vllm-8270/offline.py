from vllm import LLM

llm = LLM(model="meta-llama/Meta-Llama-3.1-70B-Instruct", pipeline_parallel_size=3, max_model_len=8192)
print(llm.generate("Hello")[0].outputs[0].text)
