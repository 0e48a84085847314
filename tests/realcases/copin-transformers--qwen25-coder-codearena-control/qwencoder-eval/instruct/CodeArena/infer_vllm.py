import argparse

import vllm

parser = argparse.ArgumentParser()
parser.add_argument("--model", default="Qwen/Qwen2.5-Coder-7B-Instruct")
parser.add_argument("--tensor_parallel_size", type=int, default=1)
parser.add_argument("--model_max_len", type=int, default=4096)
args = parser.parse_args()

llm = vllm.LLM(model=args.model, tensor_parallel_size=args.tensor_parallel_size,
               worker_use_ray=True, trust_remote_code=True, max_model_len=args.model_max_len)
params = vllm.SamplingParams(temperature=0.0, max_tokens=512)
print(llm.generate(["def fib(n):"], params)[0].outputs[0].text)
