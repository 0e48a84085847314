# Ray Serve LLM quickstart with the V1 engine asked for explicitly in the replica's environment
from ray import serve
from ray.serve.llm import LLMConfig, build_openai_app

llm_config = LLMConfig(
    model_loading_config=dict(
        model_id="qwen-0.5b",
        model_source="Qwen/Qwen2.5-0.5B-Instruct",
    ),
    deployment_config=dict(
        autoscaling_config=dict(min_replicas=1, max_replicas=2),
    ),
    accelerator_type="A10G",
    runtime_env=dict(env_vars=dict(VLLM_USE_V1="1")),
)

app = build_openai_app({"llm_configs": [llm_config]})
serve.run(app, blocking=True)
