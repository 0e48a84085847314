from vllm import LLM
