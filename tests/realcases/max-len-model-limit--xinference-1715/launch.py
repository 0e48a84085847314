from vllm import LLM

llm = LLM(model="Qwen/Qwen-14B-Chat-Int4", quantization="gptq", trust_remote_code=True, max_model_len=4096)
