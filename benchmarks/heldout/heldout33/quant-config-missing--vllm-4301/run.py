# what benchmarks/benchmark_throughput.py --model mistralai/Mistral-7B-v0.1 --quantization awq builds
from vllm import LLM, SamplingParams

llm = LLM(model="mistralai/Mistral-7B-v0.1", quantization="awq")
print(llm.generate(["Hello"], SamplingParams(max_tokens=16))[0].outputs[0].text)
