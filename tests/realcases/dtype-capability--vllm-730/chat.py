from vllm import LLM, SamplingParams

llm = LLM(model="baichuan-inc/Baichuan-13B-Chat", trust_remote_code=True)
print(llm.generate(["你好"], SamplingParams(max_tokens=64))[0].outputs[0].text)
