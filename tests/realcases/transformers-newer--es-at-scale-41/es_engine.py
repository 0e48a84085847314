import ray
from vllm import LLM, SamplingParams


@ray.remote(num_gpus=1)
class Engine:
    def __init__(self, model: str):
        self.llm = LLM(model=model, gpu_memory_utilization=0.8)

    def generate(self, prompts):
        return self.llm.generate(prompts, SamplingParams(max_tokens=256))


engine = Engine.remote("Qwen/Qwen2.5-3B-Instruct")
