from vllm import EngineArgs, LLMEngine

# a LLaMA with an extended tokenizer, adapters served per request
engine = LLMEngine.from_engine_args(EngineArgs(model="./ckpt/llama-40k", enable_lora=True, max_loras=2))
