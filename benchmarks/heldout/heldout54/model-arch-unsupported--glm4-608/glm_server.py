# Minimal OpenAI-style server for GLM-4 built on AsyncLLMEngine, as the vendor demo does.
import uvicorn
from fastapi import FastAPI
from vllm import AsyncEngineArgs, AsyncLLMEngine

MODEL_PATH = "./models/glm-4-9b-chat-hf"

app = FastAPI()

if __name__ == "__main__":
    engine_args = AsyncEngineArgs(
        model=MODEL_PATH,
        tokenizer=MODEL_PATH,
        tensor_parallel_size=1,
        dtype="bfloat16",
        trust_remote_code=True,
        gpu_memory_utilization=0.9,
        enforce_eager=True,
        max_model_len=8192,
    )
    engine = AsyncLLMEngine.from_engine_args(engine_args)
    uvicorn.run(app, host="0.0.0.0", port=8000)
