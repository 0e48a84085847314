#!/usr/bin/env python3
# LocalAI vLLM backend (reduced): the vLLM imports as they stood before PR #10252, and LoadModel's
# engine construction.
import argparse
import asyncio

from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine
from vllm.sampling_params import SamplingParams
from vllm.utils import random_uuid
from vllm.transformers_utils.tokenizer import get_tokenizer
from vllm.multimodal.utils import fetch_image
from vllm.assets.video import VideoAsset

try:
    from vllm.reasoning import ReasoningParserManager
    HAS_REASONING_PARSERS = True
except ImportError:
    HAS_REASONING_PARSERS = False


class BackendServicer:
    async def LoadModel(self, model, trust_remote_code=False):
        engine_args = AsyncEngineArgs(model=model)
        engine_args.trust_remote_code = trust_remote_code
        self.llm = AsyncLLMEngine.from_engine_args(engine_args)
        self.tokenizer = get_tokenizer(model, trust_remote_code=trust_remote_code,
                                       truncation_side="left")
        return "Model loaded successfully"


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Run the gRPC server.")
    parser.add_argument("--addr", default="localhost:50051")
    parser.add_argument("--model", default="Qwen/Qwen3-8B")
    args = parser.parse_args()
    asyncio.run(BackendServicer().LoadModel(args.model))
