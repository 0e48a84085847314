from vllm.config import LoRAConfig

from verl.utils.vllm import TensorLoRARequest


class vLLMAsyncRollout:
    """Starts the rollout's vLLM server from the rollout config (not shown)."""
