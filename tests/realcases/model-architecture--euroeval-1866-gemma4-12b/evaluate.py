from vllm import LLM

# the benchmark loads the model once per dataset, eager, with 80% of the GPU
llm = LLM(
    model="google/gemma-4-12B",
    max_model_len=8192,
    gpu_memory_utilization=0.8,
    enforce_eager=True,
    enable_prefix_caching=False,
    seed=4242,
)
