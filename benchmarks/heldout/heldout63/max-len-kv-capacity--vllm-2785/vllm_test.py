from vllm import LLM, SamplingParams

llm = LLM(model="Qwen/Qwen1.5-7B-Chat")
params = SamplingParams(temperature=0.7, top_p=0.8, max_tokens=512)
outputs = llm.generate(["Give me a short introduction to large language models."], params)
for out in outputs:
    print(out.outputs[0].text)
