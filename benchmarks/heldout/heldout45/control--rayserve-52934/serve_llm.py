from ray import serve
from ray.serve.llm import LLMConfig, ModelLoadingConfig, build_openai_app

llm_config = LLMConfig(
    model_loading_config=ModelLoadingConfig(
        model_id="Qwen/Qwen3-0.6B",
        model_source="Qwen/Qwen3-0.6B",
    ),
    deployment_config={"autoscaling_config": {"min_replicas": 1, "max_replicas": 1}},
    runtime_env={"env_vars": {"VLLM_USE_V1": "1"}},
    engine_kwargs={
        "gpu_memory_utilization": 0.92,
        "dtype": "auto",
        "max_num_seqs": 40,
        "max_model_len": 16384,
        "enable_chunked_prefill": True,
        "enable_prefix_caching": True,
        "trust_remote_code": True,
    },
)

if __name__ == "__main__":
    app = build_openai_app({"llm_configs": [llm_config]})
    serve.run(app, blocking=True)
