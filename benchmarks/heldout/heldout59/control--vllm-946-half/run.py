from vllm import LLM, SamplingParams

llm = LLM(model="tiiuae/falcon-7b-instruct", dtype="half")
params = SamplingParams(temperature=0.8, max_tokens=64)
for out in llm.generate(["Hello, my name is"], params):
    print(out.outputs[0].text)
