import torch
from vllm import LLM, SamplingParams

# Llama-3.2-1B-Instruct quantized to 4 bit in flight
llm = LLM(model="/data/models/Llama-3.2-1B-Instruct", dtype=torch.bfloat16,
          quantization="bitsandbytes", load_format="bitsandbytes")
outs = llm.generate(["question one", "question two"], SamplingParams(temperature=0.0, max_tokens=64))
