from vllm import LLM, SamplingParams


def main():
    llm = LLM(
        model="meta-llama/Llama-3.1-8B-Instruct",
        tensor_parallel_size=4,
        gpu_memory_utilization=0.9,
        enforce_eager=True,
        speculative_config={
            "method": "eagle3",
            "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B",
            "draft_tensor_parallel_size": 1,
            "num_speculative_tokens": 3,
        },
    )
    for out in llm.generate(["Hello, my name is"], SamplingParams(temperature=0.8, top_p=0.95)):
        print(out.outputs[0].text)


if __name__ == "__main__":
    main()
