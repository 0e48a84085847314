from vllm import LLM, SamplingParams

llm = LLM(model="Qwen/Qwen2-VL-2B-Instruct", tensor_parallel_size=8, max_model_len=4096)
print(llm.generate(["describe the scene"], SamplingParams(max_tokens=64))[0].outputs[0].text)
