from vllm import LLM

# Llama 4 Scout split into four pipeline stages, one GPU each
llm = LLM("meta-llama/Llama-4-Scout-17B-16E-Instruct", pipeline_parallel_size=4)
print(llm.generate("Hi, vLLM is a")[0].outputs[0].text)
