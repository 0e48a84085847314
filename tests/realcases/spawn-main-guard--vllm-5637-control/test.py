from vllm import LLM, SamplingParams


def main():
    prompts = ["The capital of France is", "The future of AI is"]
    params = SamplingParams(temperature=0.8, top_p=0.95)
    llm = LLM(model="meta-llama/Meta-Llama-3-8B-Instruct", tensor_parallel_size=2)
    for out in llm.generate(prompts, params):
        print(out.outputs[0].text)


if __name__ == "__main__":
    main()
