class vLLMRollout:
    """The rollout for vLLM 0.6.3 and older (verl's own patched engine, not vllm.LLM)."""

    def __init__(self, actor_module, config):
        self.config = config
