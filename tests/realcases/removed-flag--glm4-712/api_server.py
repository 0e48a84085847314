from vllm import AsyncEngineArgs, AsyncLLMEngine

engine_args = AsyncEngineArgs(
    model="THUDM/glm-4-9b-chat-hf",
    tensor_parallel_size=1,
    dtype="bfloat16",
    trust_remote_code=True,
    gpu_memory_utilization=0.9,
    worker_use_ray=False,
    max_model_len=8192,
)
engine = AsyncLLMEngine.from_engine_args(engine_args)
