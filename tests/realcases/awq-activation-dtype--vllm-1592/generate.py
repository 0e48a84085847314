from vllm import LLM, SamplingParams

# TheBloke's AWQ upload of Mistral 7B, loaded the way the AWQ announcement showed
llm = LLM(model="TheBloke/Mistral-7B-v0.1-AWQ", quantization="awq")
outputs = llm.generate(["The capital of France is"], SamplingParams(max_tokens=32))
print(outputs[0].outputs[0].text)
