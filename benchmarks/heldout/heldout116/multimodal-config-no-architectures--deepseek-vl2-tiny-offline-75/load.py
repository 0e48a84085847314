# Offline load of a local deepseek-vl2-tiny download, no hf_overrides.
from vllm import LLM

llm = LLM(model="/home/user/workspace/DeepSeek-VL2-main/model")
