from vllm import AsyncEngineArgs, AsyncLLMEngine

args = AsyncEngineArgs(model="Qwen/Qwen-72B-Chat", trust_remote_code=True, tensor_parallel_size=4,
                       dtype="bfloat16", enforce_eager=True)
engine = AsyncLLMEngine.from_engine_args(args)
