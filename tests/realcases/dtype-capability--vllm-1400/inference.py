from vllm import LLM

llm = LLM(model="TheBloke/Mistral-7B-Instruct-v0.1-AWQ", quantization="awq", dtype="bfloat16",
          gpu_memory_utilization=0.5)
