from vllm import LLM, SamplingParams

# offline batch run split across the two cards by pipeline stages
llm = LLM(
    model="meta-llama/Meta-Llama-3-8B-Instruct",
    pipeline_parallel_size=2,
)
params = SamplingParams(temperature=0.7, max_tokens=128)
outputs = llm.generate(["Write one sentence about the sea."], params)
for out in outputs:
    print(out.outputs[0].text)
