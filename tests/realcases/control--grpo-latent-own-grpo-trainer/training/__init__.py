from .rl_trainer import GRPOTrainer
