from vllm import LLM, SamplingParams
from vllm.lora.request import LoRARequest

llm = LLM(model="Qwen/Qwen-7B-Chat", enable_lora=True, trust_remote_code=True)
out = llm.generate(["hello"], SamplingParams(max_tokens=64),
                   lora_request=LoRARequest("adapter", 1, "./lora"))
print(out[0].outputs[0].text)
