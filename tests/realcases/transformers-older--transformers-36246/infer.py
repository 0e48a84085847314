from vllm import LLM

llm = LLM(model="Qwen/Qwen2.5-VL-7B-Instruct", trust_remote_code=True, dtype="bfloat16")
