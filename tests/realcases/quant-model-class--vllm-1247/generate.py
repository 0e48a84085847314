from vllm import LLM, SamplingParams

prompts = ["Hello, my name is", "The capital of France is"]
llm = LLM(model="casperhansen/mistral-7b-instruct-v0.1-awq", quantization="awq", dtype="half")
for out in llm.generate(prompts, SamplingParams(temperature=0.8, top_p=0.95)):
    print(out.outputs[0].text)
