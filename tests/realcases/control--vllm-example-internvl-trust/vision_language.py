from vllm import LLM, SamplingParams

llm = LLM(model="OpenGVLab/InternVL2-2B", trust_remote_code=True, max_model_len=4096)
params = SamplingParams(temperature=0.2, max_tokens=64)
print(llm.generate({"prompt": "<image>\nWhat is in the picture?"}, params))
