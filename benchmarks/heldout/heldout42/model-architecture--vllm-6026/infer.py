import torch
from vllm import LLM, SamplingParams

# Gemma 2 base model split over two GPUs, half precision
model_name = "google/gemma-2-9b"
llm = LLM(model=model_name, dtype=torch.float16, device="auto", tensor_parallel_size=2)

outputs = llm.generate(["Write a haiku about the sea."], SamplingParams(max_tokens=64))
print(outputs[0].outputs[0].text)
