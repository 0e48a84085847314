from vllm import AsyncEngineArgs, AsyncLLMEngine

args = AsyncEngineArgs(model="deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B", trust_remote_code=True)
engine = AsyncLLMEngine.from_engine_args(args)
