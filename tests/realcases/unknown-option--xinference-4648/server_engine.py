# what Xinference's vLLM model does with the launch kwargs
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine

engine_args = AsyncEngineArgs(model="/root/.xinference/cache/qwen3-vl-instruct-8b",
                              enable_auto_tool_choice=True, tool_call_parser="hermes")
engine = AsyncLLMEngine.from_engine_args(engine_args)
