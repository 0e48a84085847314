import fire
import vllm


def main(model_name: str = "Qwen/Qwen2.5-Math-1.5B", max_model_len: int = 4096, temperature: float = 0.0):
    sampling_params = vllm.SamplingParams(n=1, temperature=temperature, top_p=1, max_tokens=3000)
    model = vllm.LLM(
        model_name,
        swap_space=32,
        max_model_len=max_model_len,
        dtype="bfloat16",
        enable_prefix_caching=True,
    )
    outputs = model.generate(["1+1="], sampling_params)
    print(outputs[0].outputs[0].text)


if __name__ == "__main__":
    fire.Fire(main)
