from vllm import LLM, SamplingParams

sampling_params = SamplingParams(temperature=0.8, top_p=0.95)
llm = LLM(model="Open-Orca/LlongOrca-7B-16k")
print(llm.generate(["Tell me about long-context models."], sampling_params)[0].outputs[0].text)
