"""Start the vLLM OpenAI server the way datatrove's VLLMServer does (one node)."""
import asyncio

MODEL = "Qwen/Qwen3-1.7B"
PORT = 8123
MAX_CONTEXT = 8192


async def start_server() -> asyncio.subprocess.Process:
    cmd = [
        "vllm",
        "serve",
        MODEL,
        "--port",
        str(PORT),
        "--max-model-len",
        str(MAX_CONTEXT),
        "--trust-remote-code",
        "--disable-log-requests",
        "--disable-uvicorn-access-log",
    ]
    return await asyncio.create_subprocess_exec(
        *cmd, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )


async def main() -> None:
    proc = await start_server()
    await proc.wait()


if __name__ == "__main__":
    asyncio.run(main())
