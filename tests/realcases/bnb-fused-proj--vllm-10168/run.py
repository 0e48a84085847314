from vllm import LLM, SamplingParams

# Phi-3 mini quantized to 4 bit in flight
llm = LLM(model="microsoft/Phi-3-mini-128k-instruct", dtype="bfloat16", max_model_len=4096,
          quantization="bitsandbytes", load_format="bitsandbytes")
print(llm.generate(["Say hello."], SamplingParams(max_tokens=32))[0].outputs[0].text)
