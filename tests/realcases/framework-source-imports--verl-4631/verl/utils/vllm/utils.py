# verl's main of December 2025 (before verl PR 4631): its LoRA helpers, module-level vLLM imports only
from vllm.lora.models import LoRAModel
from vllm.lora.request import LoRARequest
from vllm.lora.utils import get_adapter_absolute_path
from vllm.lora.worker_manager import LRUCacheWorkerLoRAManager


class TensorLoRARequest(LoRARequest):
    """A LoRA request that carries its tensors."""
