"""A BentoML service that serves Llama 3 8B Instruct with vLLM and mounts OpenAI-style routes."""
import uuid
from typing import AsyncGenerator

import bentoml
from bentovllm_openai.utils import openai_endpoints

MODEL_ID = "meta-llama/Meta-Llama-3-8B-Instruct"
MAX_TOKENS = 1024


@openai_endpoints(served_model=MODEL_ID)
@bentoml.service(traffic={"timeout": 300}, resources={"gpu": 1, "gpu_type": "nvidia-l4"})
class VLLM:
    def __init__(self) -> None:
        from vllm import AsyncEngineArgs, AsyncLLMEngine

        args = AsyncEngineArgs(model=MODEL_ID, max_model_len=MAX_TOKENS)
        self.engine = AsyncLLMEngine.from_engine_args(args)

    @bentoml.api
    async def generate(self, prompt: str = "Explain superconductors.") -> AsyncGenerator[str, None]:
        from vllm import SamplingParams

        params = SamplingParams(max_tokens=MAX_TOKENS)
        stream = await self.engine.add_request(uuid.uuid4().hex, prompt, params)
        async for out in stream:
            yield out.outputs[0].text
