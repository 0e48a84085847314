from vllm import LLM

# an unsloth checkpoint saved quantized with bitsandbytes (4-bit)
llm = LLM(model="unsloth/Qwen2-7B-Instruct-bnb-4bit", dtype="bfloat16",
          quantization="bitsandbytes", load_format="bitsandbytes",
          enforce_eager=True, gpu_memory_utilization=0.95)
print(llm.generate("Hello")[0].outputs[0].text)
