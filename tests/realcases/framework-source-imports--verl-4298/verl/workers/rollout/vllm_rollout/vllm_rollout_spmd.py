# the rollout module as verl's main had it on 17 November 2025 (its module-level vLLM imports only)
from vllm import LLM, SamplingParams
from vllm.lora.request import LoRARequest
from vllm.model_executor.model_loader.utils import process_weights_after_loading

try:
    from vllm.worker.worker_base import WorkerWrapperBase
except ModuleNotFoundError:
    from vllm.v1.worker.worker_base import WorkerWrapperBase


class vLLMRollout:
    """Builds its engine from the rollout config (not shown)."""
