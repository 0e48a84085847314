class vLLMRollout:
    def __init__(self, model_path, config):
        self.model_path = model_path
