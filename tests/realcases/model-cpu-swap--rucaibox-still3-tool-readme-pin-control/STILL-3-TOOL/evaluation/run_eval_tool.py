import argparse

from vllm import LLM, SamplingParams

parser = argparse.ArgumentParser()
parser.add_argument("--model_name_or_path", default="Qwen/Qwen2.5-32B-Instruct")
parser.add_argument("--paralle_size", type=int, default=4)
args = parser.parse_args()

model = LLM(
    model=args.model_name_or_path,
    trust_remote_code=True,
    dtype="bfloat16",
    tensor_parallel_size=args.paralle_size,
    swap_space=16,
)
print(model.generate(["1+1="], SamplingParams(max_tokens=8)))
