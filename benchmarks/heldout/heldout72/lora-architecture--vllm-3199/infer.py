from vllm import LLM, SamplingParams
from vllm.lora.request import LoRARequest

ADAPTER = "/home/zyn/models/slot_lora_gd"

# A Qwen-14B (first generation, remote-code) fine-tune with a LoRA adapter for slot filling.
llm = LLM(model="./models/dem_14b_base", enable_lora=True, trust_remote_code=True)

params = SamplingParams(temperature=0, max_tokens=256, stop=["[/assistant]"])
prompts = ["[user] Fill the slots of: book a table for two tomorrow [/user] [assistant]"]
outputs = llm.generate(prompts, params, lora_request=LoRARequest("slot_adapter", 1, ADAPTER))
for out in outputs:
    print(out.outputs[0].text)
