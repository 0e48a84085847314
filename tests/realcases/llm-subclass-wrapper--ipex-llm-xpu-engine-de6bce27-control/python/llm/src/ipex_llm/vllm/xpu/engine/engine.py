from typing import Optional

from vllm.engine.arg_utils import EngineArgs
from vllm.engine.llm_engine import LLMEngine
from vllm.entrypoints.llm import LLM
from vllm.usage.usage_lib import UsageContext


class IPEXLLMClass(LLM):
    """vLLM's LLM built from ipex-llm's own constructor: it converts the model to a low-bit format."""

    def __init__(
        self,
        model: str,
        tensor_parallel_size: int = 1,
        dtype: str = "auto",
        gpu_memory_utilization: float = 0.9,
        swap_space: float = 4,
        enforce_eager: Optional[bool] = None,
        max_seq_len_to_capture: int = 8192,
        task: str = "auto",
        load_in_low_bit: str = "sym_int4",
        **kwargs,
    ) -> None:
        engine_args = EngineArgs(
            model=model,
            task=task,
            tensor_parallel_size=tensor_parallel_size,
            dtype=dtype,
            gpu_memory_utilization=gpu_memory_utilization,
            swap_space=swap_space,
            enforce_eager=enforce_eager,
            max_seq_len_to_capture=max_seq_len_to_capture,
            **kwargs,
        )
        self.llm_engine = LLMEngine.from_engine_args(engine_args, usage_context=UsageContext.LLM_CLASS)
        self.low_bit = load_in_low_bit
