from vllm import LLM, SamplingParams
from ipex_llm.vllm.xpu.engine import IPEXLLMClass as LLM

model_path = "/llm/models/whisper-large-v3-turbo"


def main():
    llm = LLM(
        model=model_path,
        device="xpu",
        dtype="float16",
        enforce_eager=True,
        load_in_low_bit="fp8",
        tensor_parallel_size=1,
        max_num_seqs=8,
        max_model_len=448,
        trust_remote_code=True,
    )
    print(llm.generate(["hello"], SamplingParams(max_tokens=16)))


if __name__ == "__main__":
    main()
