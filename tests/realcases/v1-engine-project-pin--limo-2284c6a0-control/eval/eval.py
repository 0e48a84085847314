import argparse
import os

from vllm import LLM, SamplingParams


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_name_or_path", default="./")
    parser.add_argument("--max_tokens", type=int, default=32768)
    args = parser.parse_args()
    gpus = os.environ["CUDA_VISIBLE_DEVICES"].split(",")
    params = SamplingParams(temperature=0.0, max_tokens=args.max_tokens)
    llm = LLM(model=args.model_name_or_path, tensor_parallel_size=len(gpus), trust_remote_code=True,
              gpu_memory_utilization=0.96)
    print(llm.generate(["What is 1 + 1?"], params)[0].outputs[0].text)


if __name__ == "__main__":
    main()
