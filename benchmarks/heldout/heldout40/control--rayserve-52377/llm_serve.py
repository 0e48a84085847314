from ray import serve
from ray.serve.llm import LLMConfig, LLMServer, LLMRouter


def build_app(cli_args: dict):
    engine_kwargs = dict(
        dtype=cli_args.get("dtype", "half"),
        gpu_memory_utilization=float(cli_args.get("gpu_memory_utilization", 0.90)),
        enable_chunked_prefill=str(cli_args.get("enable_chunked_prefill", "true")).lower() == "true",
        tensor_parallel_size=int(cli_args.get("tensor_parallel_size", 2)),
        max_model_len=int(cli_args.get("max_model_len", 2048)),
        max_num_seqs=int(cli_args.get("max_num_seqs", 64)),
        max_num_batched_tokens=int(cli_args.get("max_num_batched_tokens", 8192)),
    )
    llm_config = LLMConfig(
        model_loading_config=dict(
            model_id=cli_args["model"],
            model_source=cli_args["model"],
        ),
        accelerator_type="V100",
        engine_kwargs=engine_kwargs,
    )
    deployment = LLMServer.as_deployment(
        llm_config.get_serve_options(name_prefix="vLLM:")
    ).bind(llm_config)
    return LLMRouter.as_deployment().bind([deployment])
