# The service builds one async engine for a Qwen-14B-based chat model the team quantized with AutoAWQ.
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine

MODEL_DIR = "./model/llm"


def prepare_vllm():
    engine_args = AsyncEngineArgs(
        model=MODEL_DIR,
        tokenizer=MODEL_DIR,
        trust_remote_code=True,
        dtype="float16",
        quantization="awq",
        tensor_parallel_size=2,
    )
    return AsyncLLMEngine.from_engine_args(engine_args)


if __name__ == "__main__":
    engine = prepare_vllm()
