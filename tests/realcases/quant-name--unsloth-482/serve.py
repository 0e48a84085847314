from vllm import LLM

llm = LLM(model="lora_model")
