from vllm import LLM, SamplingParams

# Nemotron Super (a neural-architecture-searched Llama 3.3) on two GPUs, from a notebook
engine = LLM(
    model="nvidia/Llama-3_3-Nemotron-Super-49B-v1",
    tensor_parallel_size=2,
    trust_remote_code=True,
)
params = SamplingParams(temperature=0.6, max_tokens=256)
print(engine.generate(["Name three uses of a paperclip."], params)[0].outputs[0].text)
