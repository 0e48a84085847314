from vllm import LLM

llm = LLM(model="hiuman/Vistral-7B-Chat-quantize", quantization="AWQ", enforce_eager=True,
          gpu_memory_utilization=0.1)
