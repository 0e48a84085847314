from trl import GRPOTrainer as _Base


class GRPOTrainer(_Base):
    pass
