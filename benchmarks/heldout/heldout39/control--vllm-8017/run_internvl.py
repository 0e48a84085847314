from vllm import LLM, SamplingParams


def main():
    llm = LLM(
        model="OpenGVLab/InternVL2-2B",
        trust_remote_code=True,
        max_num_seqs=5,
        tensor_parallel_size=2,
    )
    prompt = "<|im_start|>user\n<image>\nWhat is the content of this image?<|im_end|>\n<|im_start|>assistant\n"
    from PIL import Image
    image = Image.new("RGB", (448, 448))
    out = llm.generate({"prompt": prompt, "multi_modal_data": {"image": image}},
                       SamplingParams(max_tokens=64))
    print(out[0].outputs[0].text)


if __name__ == "__main__":
    main()
