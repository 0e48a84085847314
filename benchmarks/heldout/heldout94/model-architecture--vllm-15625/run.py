from vllm import LLM, SamplingParams

llm = LLM(
    model="nvidia/Llama-3_3-Nemotron-Super-49B-v1",
    trust_remote_code=True,
    tensor_parallel_size=2,
)
outputs = llm.generate(["Summarize the plot of Hamlet in two sentences."], SamplingParams(max_tokens=128))
print(outputs[0].outputs[0].text)
