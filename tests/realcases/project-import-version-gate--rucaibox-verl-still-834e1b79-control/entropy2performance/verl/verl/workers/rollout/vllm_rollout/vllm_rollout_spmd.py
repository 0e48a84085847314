from vllm import LLM


class vLLMRollout:

    def __init__(self, model_path: str, config, tensor_parallel_size: int = 1):
        self.inference_engine = LLM(
            model=model_path,
            enable_sleep_mode=True,
            tensor_parallel_size=tensor_parallel_size,
            distributed_executor_backend="external_launcher",
            dtype=config.dtype,
            enforce_eager=config.enforce_eager,
            gpu_memory_utilization=config.gpu_memory_utilization,
            max_model_len=config.prompt_length + config.response_length,
        )
        self.inference_engine.sleep(level=1)
