"""Nightly scoring of yesterday's conversations with a small judge model."""
import json
import sys

from vllm import LLM, SamplingParams

JUDGE = "Qwen/Qwen2.5-7B-Instruct"

ENGINE = {
    "max_model_len": 8192,
    "gpu_memory_utilization": 0.5,
    "max_num_seqs": 32,
}


def main(path: str) -> None:
    llm = LLM(model=JUDGE, **ENGINE)
    prompts = [json.loads(line)["prompt"] for line in open(path)]
    for out in llm.generate(prompts, SamplingParams(temperature=0.0, max_tokens=16)):
        print(out.outputs[0].text.strip())


if __name__ == "__main__":
    main(sys.argv[1])
