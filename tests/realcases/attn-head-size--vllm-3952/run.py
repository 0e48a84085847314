from vllm import LLM, SamplingParams

llm = LLM(model="./models/stablelm-2-12b", tensor_parallel_size=2)
print(llm.generate(["The capital of France is"], SamplingParams(max_tokens=16))[0].outputs[0].text)
