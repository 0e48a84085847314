from vllm import EngineArgs, LLMEngine

engine_args = EngineArgs(
    model="Qwen/Qwen3-0.6B",
    gpu_memory_utilization=0.2,
    max_num_batched_tokens=32,
    max_model_len=2048,
    dtype="float16",
)
engine = LLMEngine.from_engine_args(engine_args)
