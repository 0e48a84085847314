# Offline inference split over three GPUs with pipeline parallelism, as in the thread.
from vllm import LLM, SamplingParams

llm = LLM("/data/big_model/gemma-2-27b-it", pipeline_parallel_size=3)
out = llm.generate(["Hello"], SamplingParams(max_tokens=32))
print(out[0].outputs[0].text)
