"""Engine settings kept as data: a base dict, per-deployment overrides, merged before the call."""
from dataclasses import dataclass

from vllm import LLM, AsyncEngineArgs, AsyncLLMEngine

MODEL = "Qwen/Qwen2.5-7B-Instruct"
BASE_ARGS = {
    "trust_remote_code": True,
    "dtype": "bfloat16",
    "max_model_len": 4096,
    "disable_log_stats": True,
}
OVERRIDES = {"max_model_len": 8192, "gpu_memory_utilization": 0.85}


@dataclass
class BatchConfig:
    model: str = "Qwen/Qwen2.5-1.5B-Instruct"
    tensor_parallel_size: int = 1
    max_num_seqs: int = 128


def build_engine(use_lora: bool = False):
    engine_args = {"model": MODEL, **BASE_ARGS, "tensor_parallel_size": 2, "enforce_eager": False}
    if use_lora:
        engine_args["enable_lora"] = True
        engine_args["max_lora_rank"] = 64
    engine_args.update(OVERRIDES)
    return AsyncLLMEngine.from_engine_args(AsyncEngineArgs(**engine_args))


def build_offline():
    return LLM(**dict(BASE_ARGS, model=MODEL, max_model_len=2048))


def build_batch(cfg: BatchConfig = BatchConfig(max_num_seqs=64)):
    return LLM(model=cfg.model, tensor_parallel_size=cfg.tensor_parallel_size, max_num_seqs=cfg.max_num_seqs)
