from vllm import LLM, SamplingParams


def main():
    llm = LLM(
        model="cpatonn/Qwen3-VL-32B-Instruct-AWQ-4bit",
        tensor_parallel_size=2,
        max_model_len=4096,
        max_num_seqs=5,
        enforce_eager=True,
        limit_mm_per_prompt={"image": 1},
    )
    print(llm.generate(["Describe a cat."], SamplingParams(max_tokens=32))[0].outputs[0].text)


if __name__ == "__main__":
    main()
