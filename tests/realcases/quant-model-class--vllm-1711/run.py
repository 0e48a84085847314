from vllm import LLM, SamplingParams

# the AWQ export of bloomz-3b, served quantized
llm = LLM(model="./models/bloomz-3b-awq", quantization="awq", trust_remote_code=True)
print(llm.generate(["Translate to French: good morning"], SamplingParams(max_tokens=32)))
