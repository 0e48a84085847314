from vllm import LLM, SamplingParams

PATH_TO_CHATGLM2_6B = "THUDM/chatglm2-6b"


def test_vllm(prompts):
    llm = LLM(
        model=PATH_TO_CHATGLM2_6B,
        tokenizer=PATH_TO_CHATGLM2_6B,
        trust_remote_code=True,
        tensor_parallel_size=4,
        gpu_memory_utilization=0.6,
        enforce_eager=True,
    )
    sampling_params = SamplingParams(n=1, temperature=0.6, max_tokens=8129)
    return llm.generate(prompts, sampling_params=sampling_params)


if __name__ == "__main__":
    test_vllm(["请你列举20条关于零点不好的建议"])
