from vllm.engine.arg_utils import EngineArgs

from rlinf.workers.rollout.vllm import VLLMExecutor


class VLLMWorker:
    def __init__(self, cfg):
        self._cfg = cfg

    def init_worker(self):
        engine_args = EngineArgs(
            model=self._cfg.rollout.model.model_path,
            tensor_parallel_size=self._cfg.rollout.tensor_parallel_size,
            gpu_memory_utilization=self._cfg.rollout.gpu_memory_utilization,
            distributed_executor_backend=VLLMExecutor,
        )
        return engine_args
