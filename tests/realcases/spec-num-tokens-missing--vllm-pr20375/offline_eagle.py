from vllm import LLM

# EAGLE head for Llama 3 8B Instruct, no token count given
engine = LLM(
    model="meta-llama/Meta-Llama-3-8B-Instruct",
    tensor_parallel_size=4,
    speculative_config={"model": "yuhuili/EAGLE-LLaMA3-Instruct-8B", "draft_tensor_parallel_size": 1},
)
print(engine.generate(["Hello"])[0].outputs[0].text)
