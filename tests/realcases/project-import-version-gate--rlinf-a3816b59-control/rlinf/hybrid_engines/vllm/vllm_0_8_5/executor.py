from vllm.config import VllmConfig
from vllm.executor.multiproc_worker_utils import _add_prefix, set_multiprocessing_worker_envs
from vllm.v1.executor.multiproc_executor import MultiprocExecutor


class VLLMExecutor(MultiprocExecutor):
    def _init_executor(self):
        set_multiprocessing_worker_envs(1)
        return _add_prefix
