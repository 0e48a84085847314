# GLM-4 basic_demo OpenAI-style server, reduced to the engine construction
from vllm import AsyncEngineArgs, AsyncLLMEngine

MODEL_PATH = "THUDM/glm-4-9b-chat"
MAX_MODEL_LENGTH = 8192

if __name__ == "__main__":
    engine_args = AsyncEngineArgs(
        model=MODEL_PATH,
        tokenizer=MODEL_PATH,
        tensor_parallel_size=1,
        dtype="bfloat16",
        trust_remote_code=True,
        gpu_memory_utilization=0.9,
        enforce_eager=True,
        disable_log_requests=True,
        max_model_len=MAX_MODEL_LENGTH,
    )
    engine = AsyncLLMEngine.from_engine_args(engine_args)
