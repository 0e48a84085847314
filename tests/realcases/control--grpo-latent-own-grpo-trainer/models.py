from vllm import LLM, SamplingParams


class Wrapper:
    def __init__(self, name: str, use_vllm: bool, gpu_util: float = 0.85):
        self.llm = LLM(model=name, gpu_memory_utilization=gpu_util) if use_vllm else None
