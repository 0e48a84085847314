from vllm import LLM

engine = LLM(
    model="meta-llama/Meta-Llama-3-8B-Instruct",
    tensor_parallel_size=4,
    speculative_config={"model": "yuhuili/EAGLE-LLaMA3-Instruct-8B", "draft_tensor_parallel_size": 1,
                        "num_speculative_tokens": 2},
)
print(engine.generate(["Hello"])[0].outputs[0].text)
