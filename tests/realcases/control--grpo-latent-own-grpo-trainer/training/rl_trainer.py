import torch


class GRPOTrainer:
    """Group-relative policy updates for a small selector network; the language model stays frozen."""

    def __init__(self, policy, lr: float = 1e-4, group_size: int = 4):
        self.policy = policy
        self.group_size = group_size
        self.opt = torch.optim.AdamW(policy.parameters(), lr=lr)
