import os

# the engine log in the report shows the V0 engine
os.environ.setdefault("VLLM_USE_V1", "0")

from vllm import LLM, SamplingParams


def main():
    llm = LLM(
        model="Qwen/Qwen3-30B-A3B-FP8",
        trust_remote_code=True,
        dtype="bfloat16",
        max_model_len=40960,
        tensor_parallel_size=1,
    )
    out = llm.generate(["Hello"], SamplingParams(max_tokens=32))
    print(out[0].outputs[0].text)


if __name__ == "__main__":
    main()
