from vllm import EngineArgs, LLMEngine
from vllm.lora.request import LoRARequest

# GLM-4-9B-chat (128K context) with the LoRA checkpoint of a fine-tune, served per request
engine = LLMEngine.from_engine_args(EngineArgs(
    model="./ckpt/glm-4-9b-chat",
    trust_remote_code=True,
    enable_lora=True,
    max_loras=1,
    max_lora_rank=16,
    tensor_parallel_size=4,
    max_model_len=32768,
))
lora = LoRARequest("default-lora", 1, "./output/checkpoint-225")
