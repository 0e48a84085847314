from dataclasses import dataclass


@dataclass
class InferenceEngineConfig:
    backend: str = "vllm"
    tensor_parallel_size: int = 1
    gpu_memory_utilization: float = 0.8
