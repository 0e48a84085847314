class vLLMRollout:
    def __init__(self, config, model_path):
        # free_cache_engine is vLLM's sleep mode here (enable_sleep_mode=config.free_cache_engine): no assertion
        self.sleep, self.eager = config.free_cache_engine, config.enforce_eager
