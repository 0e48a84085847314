# Engine construction of the project (reduced): settings come from the environment of the compose file.
import os

from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine


def create_vllm_engine():
    engine_args = AsyncEngineArgs(
        model=os.environ.get("MODEL_PATH", "checkpoints/Qwen1.5-7B-Chat"),
        dtype=os.environ.get("DTYPE", "half"),
        tensor_parallel_size=int(os.environ.get("TENSOR_PARALLEL_SIZE", 1)),
        gpu_memory_utilization=float(os.environ.get("GPU_MEMORY_UTILIZATION", 0.9)),
    )
    return AsyncLLMEngine.from_engine_args(engine_args)
