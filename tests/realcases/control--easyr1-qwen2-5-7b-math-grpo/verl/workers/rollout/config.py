class RolloutConfig:
    pass
