import argparse
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine

parser = argparse.ArgumentParser()
parser.add_argument("--host", default="0.0.0.0")
parser.add_argument("--port", type=int, default=8000)
parser.add_argument("--enable-grammar-sampling", action="store_true")
parser = AsyncEngineArgs.add_cli_args(parser)
args = parser.parse_args()
engine = AsyncLLMEngine.from_engine_args(AsyncEngineArgs.from_cli_args(args))
