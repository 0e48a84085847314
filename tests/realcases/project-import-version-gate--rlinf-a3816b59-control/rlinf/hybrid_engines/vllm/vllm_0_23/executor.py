from vllm.config import VllmConfig
from vllm.v1.executor.multiproc_executor import MultiprocExecutor


class VLLMExecutor(MultiprocExecutor):
    pass
