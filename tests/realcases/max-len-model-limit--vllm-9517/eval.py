import argparse

from vllm import LLM, SamplingParams

parser = argparse.ArgumentParser()
parser.add_argument("--llm_name", default="google/gemma-2-2b")
args = parser.parse_args()

max_len = 8192
llm = LLM(model=args.llm_name, dtype="bfloat16", max_model_len=max_len)
outputs = llm.generate(["Answer the question."], SamplingParams(max_tokens=512))
