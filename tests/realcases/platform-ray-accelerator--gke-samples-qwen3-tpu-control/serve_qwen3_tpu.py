from ray.serve.llm import LLMConfig, LLMServingArgs, build_openai_app

llm_config = LLMConfig(
    model_loading_config={"model_id": "Qwen/Qwen3-4B-Instruct-2507", "model_source": "Qwen/Qwen3-4B-Instruct-2507"},
    accelerator_type="TPU-V6E",
    engine_kwargs={
        "tensor_parallel_size": 8,
        "max_model_len": 8192,
        "distributed_executor_backend": "ray",
    },
)

deployment = build_openai_app(LLMServingArgs(llm_configs=[llm_config]))
