from .vllm_rollout_spmd import vLLMRollout  # noqa: F401
