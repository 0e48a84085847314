from vllm import LLM, SamplingParams


def main():
    llm = LLM(model="baichuan-inc/Baichuan-M1-14B-Instruct", trust_remote_code=True)
    params = SamplingParams(temperature=0.3, max_tokens=512)
    for out in llm.generate(["What are the early symptoms of type 2 diabetes?"], params):
        print(out.outputs[0].text)


if __name__ == "__main__":
    main()
