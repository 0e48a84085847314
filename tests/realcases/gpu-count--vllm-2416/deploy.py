import ray
from ray.util.placement_group import placement_group
from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine

ray.init(address="auto")
pg = placement_group([{"GPU": 1, "CPU": 4}], strategy="STRICT_PACK")
ray.get(pg.ready())


@ray.remote(num_gpus=1)
class Server:
    def __init__(self):
        args = AsyncEngineArgs(model="meta-llama/Llama-2-13b-chat-hf", tensor_parallel_size=2, worker_use_ray=True)
        self.engine = AsyncLLMEngine.from_engine_args(args)


server = Server.options(scheduling_strategy=PlacementGroupSchedulingStrategy(placement_group=pg)).remote()
