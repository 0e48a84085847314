from vllm import LLM
from vllm.engine.arg_utils import PoolerConfig


def build(model: str, tp: int) -> LLM:
    # the hidden states of every position, for a perplexity computed outside vLLM
    return LLM(model=model, dtype="bfloat16", enforce_eager=True, tensor_parallel_size=tp,
               distributed_executor_backend="mp", task="embed",
               override_pooler_config=PoolerConfig(pooling_type="ALL", normalize=False, softmax=False))


if __name__ == "__main__":
    build("Qwen/Qwen2.5-7B-Instruct", 1)
