from vllm import LLM


class vLLMRollout:
    def __init__(self, model_path, config):
        self.engine = LLM(model=model_path, tensor_parallel_size=config.tp, enable_sleep_mode=True,
                          distributed_executor_backend="external_launcher", gpu_memory_utilization=0.5)
