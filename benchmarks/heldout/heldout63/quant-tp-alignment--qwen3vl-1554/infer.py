from vllm import LLM, SamplingParams

MODEL_PATH = "models/Qwen3-VL-30B-A3B-Thinking-FP8"


def main():
    llm = LLM(
        model=MODEL_PATH,
        trust_remote_code=True,
        tensor_parallel_size=4,
        seed=0,
    )
    params = SamplingParams(temperature=0, max_tokens=1024)
    messages = [{"role": "user", "content": [{"type": "text", "text": "Describe this picture."}]}]
    out = llm.chat(messages, params)
    print(out[0].outputs[0].text)


if __name__ == "__main__":
    main()
