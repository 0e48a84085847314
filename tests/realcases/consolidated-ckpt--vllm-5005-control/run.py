from vllm import LLM, SamplingParams

llm = LLM(model="mistralai/Mistral-7B-v0.3")
print(llm.generate(["The capital of France is"], SamplingParams(max_tokens=16))[0].outputs[0].text)
