# How QAnything's python edition builds its local vLLM engine for the 7B model (written out).
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine


engine_args = AsyncEngineArgs(
    model="assets/custom_models/Qwen-7B-QAnything",
    tokenizer_mode="auto",
    trust_remote_code=True,
    tensor_parallel_size=1,
    max_model_len=4096,
    gpu_memory_utilization=0.67,
    dtype="auto",
)

if __name__ == "__main__":
    engine = AsyncLLMEngine.from_engine_args(engine_args)
