from .vllm_rollout import vLLMAsyncRollout  # noqa: F401
