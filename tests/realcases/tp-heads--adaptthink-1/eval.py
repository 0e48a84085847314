from vllm import LLM, SamplingParams

llm = LLM(model="deepseek-ai/DeepSeek-R1-Distill-Qwen-7B", tensor_parallel_size=8)
outs = llm.generate(["Solve: 12 * 7 = ?"], SamplingParams(max_tokens=512))
print(outs[0].outputs[0].text)
