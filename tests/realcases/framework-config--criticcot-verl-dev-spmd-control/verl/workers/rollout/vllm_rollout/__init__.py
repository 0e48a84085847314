from .vllm_rollout_spmd import vLLMAsyncRollout, vLLMRollout  # noqa: F401

vllm_mode = "spmd"
