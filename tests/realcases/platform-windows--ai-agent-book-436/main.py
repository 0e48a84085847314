from vllm import LLM, SamplingParams

llm = LLM(model="Qwen/Qwen2.5-0.5B-Instruct", max_model_len=4096)
print(llm.generate(["Hello"], SamplingParams(max_tokens=32))[0].outputs[0].text)
