from vllm import LLM, SamplingParams

llm = LLM(model="google/gemma-2-2b-it", dtype="half", max_model_len=2048)
out = llm.generate(["Summarise the plot of Hamlet in two sentences."], SamplingParams(max_tokens=128))
print(out[0].outputs[0].text)
