from vllm import LLM

llm = LLM(model="hiuman/Vistral-7B-Chat-quantize", quantization="AWQ", enforce_eager=True)
