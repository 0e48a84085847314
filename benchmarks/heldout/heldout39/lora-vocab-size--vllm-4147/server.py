import asyncio

from vllm import SamplingParams
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine

engine_args = AsyncEngineArgs(
    model="01-ai/Yi-34B-Chat",
    tensor_parallel_size=2,
    enable_lora=True,
    trust_remote_code=True,
)
engine = AsyncLLMEngine.from_engine_args(engine_args)


async def main():
    async for out in engine.generate("Hello", SamplingParams(max_tokens=32), request_id="0"):
        last = out
    print(last.outputs[0].text)


if __name__ == "__main__":
    asyncio.run(main())
