import os

from vllm import LLM, SamplingParams


def build_generator(model: str = "Qwen/Qwen3-0.6B") -> LLM:
    # the V2 model runner broke the DP>1 generator: stay on the V1 runner
    os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"
    return LLM(model=model, max_model_len=4096, gpu_memory_utilization=0.5, enforce_eager=True)


if __name__ == "__main__":
    llm = build_generator()
    print(llm.generate(["Hello"], SamplingParams(max_tokens=16))[0].outputs[0].text)
