from vllm import LLM, SamplingParams

# Qwen2.5-VL 3B quantized to 4 bit while it loads, over two GPUs
llm = LLM(model="Qwen/Qwen2.5-VL-3B-Instruct", quantization="bitsandbytes", load_format="bitsandbytes",
          tensor_parallel_size=2, dtype="float16", max_model_len=4096)
print(llm.generate("What is the capital of France?", SamplingParams(max_tokens=32))[0].outputs[0].text)
