import vllm


def make_engine(model_path: str, tp: int):
    # the rollout model's engine arguments, as the trainer built them before the fix
    engine_args = vllm.AsyncEngineArgs(
        model=model_path,
        tensor_parallel_size=tp,
        dtype="bfloat16",
        trust_remote_code=True,
        disable_log_requests=True,
        gpu_memory_utilization=0.9,
        enable_chunked_prefill=False,
    )
    return vllm.AsyncLLMEngine.from_engine_args(engine_args)


engine = make_engine("Qwen/Qwen2.5-7B-Instruct", 1)
