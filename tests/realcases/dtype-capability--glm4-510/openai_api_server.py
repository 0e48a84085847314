from vllm import AsyncEngineArgs, AsyncLLMEngine

MODEL_PATH = "THUDM/glm-4-9b-chat"

engine_args = AsyncEngineArgs(
    model=MODEL_PATH,
    tokenizer=MODEL_PATH,
    tensor_parallel_size=1,
    trust_remote_code=True,
    gpu_memory_utilization=0.9,
    enforce_eager=True,
    worker_use_ray=False,
    max_model_len=8192,
)
engine = AsyncLLMEngine.from_engine_args(engine_args)
