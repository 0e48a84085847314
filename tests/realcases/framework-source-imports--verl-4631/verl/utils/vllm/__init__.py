from .utils import TensorLoRARequest  # noqa: F401
