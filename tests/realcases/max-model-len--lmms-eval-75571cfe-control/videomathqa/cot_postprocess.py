import argparse

from vllm import LLM, SamplingParams


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--input_file", required=True)
    parser.add_argument("--model_path", default="Qwen/Qwen3-4B")
    args = parser.parse_args()
    llm = LLM(model=args.model_path)
    # the judge answers with one option letter
    params = SamplingParams(temperature=0.7, top_p=0.8, max_tokens=16)
    with open(args.input_file) as f:
        prompts = [line.strip() for line in f]
    for out in llm.generate(prompts, params):
        print(out.outputs[0].text)


if __name__ == "__main__":
    main()
