from vllm import AsyncEngineArgs, AsyncLLMEngine


class TTSBackend:
    def __init__(self, model_dir: str, gpu_memory_utilization: float = 0.25):
        engine_args = AsyncEngineArgs(
            model=model_dir,
            tensor_parallel_size=1,
            dtype="auto",
            gpu_memory_utilization=gpu_memory_utilization,
        )
        self.engine = AsyncLLMEngine.from_engine_args(engine_args)
