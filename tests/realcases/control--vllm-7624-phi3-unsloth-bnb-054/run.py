from vllm import LLM

# unsloth's Phi-3 mini checkpoint saved in 4 bit with bitsandbytes
llm = LLM(model="unsloth/Phi-3-mini-4k-instruct-bnb-4bit", dtype="bfloat16", gpu_memory_utilization=0.95,
          quantization="bitsandbytes", load_format="bitsandbytes", enforce_eager=True)
