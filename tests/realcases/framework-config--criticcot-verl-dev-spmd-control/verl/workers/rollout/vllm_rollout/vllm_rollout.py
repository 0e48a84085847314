# the old rollout for vLLM <= 0.6.3, left in the tree and imported by nothing
class vLLMRollout:
    def __init__(self, config):
        assert not (not config.enforce_eager and config.free_cache_engine), "disable CUDA graph (enforce_eager = False) if free cache engine"
