import os

from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine

args = AsyncEngineArgs(
    model="/workspace/AIProjects/models/Qwen-72B-Chat-Int4",
    trust_remote_code=True,
    tensor_parallel_size=2,
    dtype="half",
)
engine = AsyncLLMEngine.from_engine_args(args)
