from vllm import LLM, SamplingParams

llm = LLM(model="meta-llama/Meta-Llama-3-8B-Instruct")
params = SamplingParams(temperature=0.5)
conversation = [{"role": "user", "content": "Write an essay about the importance of higher education."}]
print(llm.chat(conversation, params)[0].outputs[0].text)
