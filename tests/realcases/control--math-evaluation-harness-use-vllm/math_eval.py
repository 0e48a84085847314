import argparse

from vllm import LLM, SamplingParams


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_name_or_path", default="gpt-4", type=str)
    parser.add_argument("--data_names", default="gsm8k,math", type=str)
    parser.add_argument("--use_vllm", action="store_true")
    return parser.parse_args()


def main(args):
    if args.use_vllm:
        llm = LLM(model=args.model_name_or_path, tensor_parallel_size=1, trust_remote_code=True)
        params = SamplingParams(temperature=0, max_tokens=2048)
        print(llm.generate(["Question: 2+2?"], params))


if __name__ == "__main__":
    main(parse_args())
