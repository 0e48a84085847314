from vllm import LLM, SamplingParams
from vllm.lora.request import LoRARequest

llm = LLM(
    model="Qwen/Qwen3-30B-A3B",
    enable_lora=True,
    max_lora_rank=16,
    max_model_len=8192,
)
params = SamplingParams(temperature=0.7, max_tokens=256)
text = "Summarise the plot of Hamlet in two sentences."
outputs = llm.generate([text], params, lora_request=LoRARequest("lora_model", 1, "./lora_model"))
for out in outputs:
    print(out.outputs[0].text)
