from vllm import LLM, SamplingParams
from vllm.lora.request import LoRARequest

llm = LLM(model="Qwen/Qwen-1_8B-Chat", enable_lora=True, trust_remote_code=True)
params = SamplingParams(temperature=0, max_tokens=256)
print(llm.generate(["test"], params, lora_request=LoRARequest("text_format", 1, "./qwen1_lora")))
