# Qwen3-32B behind Ray Serve's OpenAI-compatible app.
from ray.serve.llm import LLMConfig, build_openai_app

llm_config = LLMConfig(
    model_loading_config=dict(
        model_id="my-qwen-3-32b",
        model_source="Qwen/Qwen3-32B",
    ),
    accelerator_type="L40S",
    deployment_config=dict(
        autoscaling_config=dict(
            min_replicas=1,
            max_replicas=2,
        )
    ),
    engine_kwargs=dict(
        # four GPUs fit the model; more raise concurrency
        tensor_parallel_size=4,
        max_model_len=32768,
        reasoning_parser="qwen3",
    ),
)
app = build_openai_app({"llm_configs": [llm_config]})
