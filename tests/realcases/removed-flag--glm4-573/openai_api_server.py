from vllm import AsyncEngineArgs, AsyncLLMEngine

MODEL_PATH = "THUDM/glm-4-9b-chat"


def build_engine():
    args = AsyncEngineArgs(
        model=MODEL_PATH,
        tokenizer=MODEL_PATH,
        tensor_parallel_size=1,
        dtype="bfloat16",
        trust_remote_code=True,
        gpu_memory_utilization=0.9,
        enforce_eager=True,
        worker_use_ray=False,
        engine_use_ray=False,
        disable_log_requests=True,
        max_model_len=8192,
    )
    return AsyncLLMEngine.from_engine_args(args)
