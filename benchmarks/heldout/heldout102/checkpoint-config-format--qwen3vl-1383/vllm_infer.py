from vllm import LLM, SamplingParams

llm = LLM(
    model="./merged-qwen25vl",
    limit_mm_per_prompt={"image": 4},
    max_model_len=8192,
)
print(llm.generate("hello", SamplingParams(max_tokens=16)))
