from vllm import LLM

# the same bfloat16-saved upload, run in the float16 the AWQ kernel takes
llm = LLM(model="TheBloke/Mistral-7B-v0.1-AWQ", quantization="awq", dtype="half")
print(llm.generate(["Hello"])[0].outputs[0].text)
