from vllm import LLM

llm = LLM(model="google/gemma-2-9b-it", dtype="bfloat16", max_model_len=2048,
          gpu_memory_utilization=0.7, swap_space=4)
