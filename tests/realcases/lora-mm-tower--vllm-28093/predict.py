from vllm import LLM, SamplingParams
from vllm.lora.request import LoRARequest

llm = LLM(model="Qwen/Qwen3-VL-8B-Instruct", enable_lora=True, max_lora_rank=64, max_model_len=8192)
outputs = llm.generate(["Describe the picture."], SamplingParams(max_tokens=128),
                       lora_request=LoRARequest("mine", 1, "/data/qwen3vl-lora"))
