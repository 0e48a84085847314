# Offline vision-language example, InternVL2 branch, as the reporter ran it on 8x A10
# with tensor parallelism raised to 4.
from vllm import LLM, SamplingParams


def main():
    llm = LLM(
        model="OpenGVLab/InternVL2-26B",
        trust_remote_code=True,
        max_num_seqs=5,
        tensor_parallel_size=4,
    )
    prompt = "<|im_start|>user\n<image>\nWhat is in this picture?<|im_end|>\n<|im_start|>assistant\n"
    out = llm.generate({"prompt": prompt}, SamplingParams(max_tokens=64))
    print(out[0].outputs[0].text)


if __name__ == "__main__":
    main()
