from vllm import LLM, SamplingParams

llm = LLM(
    model="stabilityai/stablelm-base-alpha-7b-v2",
    tokenizer="stabilityai/stablelm-base-alpha-7b-v2",
    trust_remote_code=True,
    tensor_parallel_size=4,
)

outputs = llm.generate(["The capital of France is"], SamplingParams(max_tokens=32))
for o in outputs:
    print(o.outputs[0].text)
