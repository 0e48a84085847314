from vllm import LLM

llm = LLM(model="Qwen/Qwen3-VL-8B-Instruct", max_model_len=16384, gpu_memory_utilization=0.6)
