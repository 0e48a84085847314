# stand-in for the vendored rollout: the early verl check that CUDA graphs stay off while the cache is freed
class vLLMRollout:
    def __init__(self, config):
        assert not (not config.enforce_eager and config.free_cache_engine), "CUDA graphs need free_cache_engine off"
