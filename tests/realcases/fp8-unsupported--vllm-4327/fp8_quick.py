from vllm import LLM

llm = LLM(model="meta-llama/Meta-Llama-3-8B-Instruct", quantization="fp8", tensor_parallel_size=2)
