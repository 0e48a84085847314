from vllm import LLM, SamplingParams

llm = LLM(
    model="microsoft/Phi-3-medium-4k-instruct",
    trust_remote_code=True,
    dtype="float16",
    tensor_parallel_size=4,
    enforce_eager=True,
    disable_custom_all_reduce=True,
    distributed_executor_backend="ray",
)
print(llm.generate(["Hello"], SamplingParams(max_tokens=16))[0].outputs[0].text)
