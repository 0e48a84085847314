from vllm import AsyncEngineArgs, AsyncLLMEngine

MODEL_PATH = "VITA-MLLM/VITA"


def load_engine():
    engine_args = AsyncEngineArgs(
        model=MODEL_PATH,
        tokenizer=MODEL_PATH,
        tensor_parallel_size=4,
        trust_remote_code=True,
        gpu_memory_utilization=0.85,
    )
    return AsyncLLMEngine.from_engine_args(engine_args)
