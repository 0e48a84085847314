from lmms_eval.imports import optional_import

LLM, _has_vllm = optional_import("vllm", "LLM")
SamplingParams, _ = optional_import("vllm", "SamplingParams")


class VLLM:
    def __init__(self, model: str = "Qwen/Qwen2.5-VL-3B-Instruct", tensor_parallel_size: int = 1,
                 gpu_memory_utilization: float = 0.8, trust_remote_code: bool = True, **kwargs) -> None:
        self.model = model
        self.client = LLM(
            model=self.model,
            tensor_parallel_size=tensor_parallel_size,
            gpu_memory_utilization=gpu_memory_utilization,
            trust_remote_code=trust_remote_code,
            seed=1,
            **kwargs,
        )
