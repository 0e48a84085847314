from ray.serve.llm import LLMConfig, LLMServingArgs, build_openai_app

llm_config = LLMConfig(
    model_loading_config=dict(
        model_id="qwen3-embedding",
        model_source="Qwen/Qwen3-Embedding-0.6B",
    ),
    deployment_config=dict(
        autoscaling_config=dict(min_replicas=1, max_replicas=1),
    ),
    # embeddings as the Ray Serve LLM guide showed them at the time
    engine_kwargs=dict(
        task="embed",
    ),
)

app = build_openai_app(LLMServingArgs(llm_configs=[llm_config]))
