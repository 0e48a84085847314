"""Evaluation entry: generate completions for a benchmark with the vLLM backend."""
import argparse

from backend.vllm import VllmGenerator


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True)
    ap.add_argument("--num-gpus", type=int, default=1)
    args = ap.parse_args()
    gen = VllmGenerator(args.model, num_gpus=args.num_gpus)
    print(gen.generate(["def add(a, b):"]))


if __name__ == "__main__":
    main()
