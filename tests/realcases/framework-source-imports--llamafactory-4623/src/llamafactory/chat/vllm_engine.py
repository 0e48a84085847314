# LLaMA-Factory's vLLM engine module as its main had it at the end of June 2024 (imports only)
from ..extras.packages import is_vllm_available

if is_vllm_available():
    from vllm import AsyncEngineArgs, AsyncLLMEngine, RequestOutput, SamplingParams
    from vllm.lora.request import LoRARequest


class VllmEngine:
    """Builds an AsyncLLMEngine from the model arguments (not shown)."""
