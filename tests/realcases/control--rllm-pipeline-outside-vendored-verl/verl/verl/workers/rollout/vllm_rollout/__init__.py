from .vllm_rollout import vLLMRollout
