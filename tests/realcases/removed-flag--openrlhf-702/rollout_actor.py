import ray
import vllm


@ray.remote(num_gpus=1)
class RolloutActor:
    def __init__(self, pretrain, tensor_parallel_size=1, seed=0):
        self.llm = vllm.LLM(
            model=pretrain,
            tensor_parallel_size=tensor_parallel_size,
            worker_use_ray=True,
            seed=seed,
            enable_prefix_caching=True,
        )

    def generate(self, prompts, params):
        return self.llm.generate(prompts, params)
