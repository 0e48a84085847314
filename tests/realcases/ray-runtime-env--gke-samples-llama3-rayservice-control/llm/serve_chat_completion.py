import os
from ray import serve
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine
from vllm.entrypoints.openai.cli_args import make_arg_parser
from vllm.entrypoints.openai.serving_chat import OpenAIServingChat


@serve.deployment(name="VLLMDeployment")
class VLLMDeployment:
    def __init__(self, engine_args: AsyncEngineArgs):
        self.engine = AsyncLLMEngine.from_engine_args(engine_args)


def build_app(cli_args):
    parser = make_arg_parser()
    parsed = parser.parse_args(args=[f"--{k}={v}" for k, v in cli_args.items()])
    engine_args = AsyncEngineArgs.from_cli_args(parsed)
    engine_args.worker_use_ray = True
    return VLLMDeployment.bind(engine_args)


model = build_app({"model": os.environ["MODEL_ID"], "tensor-parallel-size": os.environ["TENSOR_PARALLELISM"]})
