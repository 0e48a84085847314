import asyncio

from vllm import SamplingParams
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine


def build_engine():
    args = AsyncEngineArgs(
        model="Qwen/Qwen2.5-7B-Instruct",
        gpu_memory_utilization=0.9,
        max_model_len=8192,
        disable_log_requests=True,
    )
    return AsyncLLMEngine.from_engine_args(args)


async def main():
    engine = build_engine()
    params = SamplingParams(max_tokens=64)
    async for out in engine.generate("Hello", params, request_id="0"):
        last = out
    print(last.outputs[0].text)


if __name__ == "__main__":
    asyncio.run(main())
