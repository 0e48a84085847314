"""Builds the vLLM engine from the .env values, as api-for-open-llm's vllm engine does."""
import os

from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine

MODEL_PATH = os.environ.get("MODEL_PATH", "./models/Qwen1.5-14B-Chat")

engine_args = AsyncEngineArgs(
    model=MODEL_PATH,
    tokenizer=MODEL_PATH,
    tensor_parallel_size=1,  # TENSOR_PARALLEL_SIZE from .env
    trust_remote_code=True,
    dtype="auto",
    gpu_memory_utilization=0.9,
)
engine = AsyncLLMEngine.from_engine_args(engine_args)
