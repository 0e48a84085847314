from vllm import LLM, SamplingParams

# the original Google upload, before any fine-tuning
llm = LLM(model="google/gemma-4-E4B-it")
print(llm.generate(["Hello"], SamplingParams(max_tokens=16))[0].outputs[0].text)
