from vllm import LLM, SamplingParams
from vllm.lora.request import LoRARequest

llm = LLM(model="Qwen/Qwen1.5-7B-Chat", enable_lora=True)
out = llm.generate(["hi"], SamplingParams(max_tokens=64), lora_request=LoRARequest("sft", 1, "./lora/sft"))
print(out)
