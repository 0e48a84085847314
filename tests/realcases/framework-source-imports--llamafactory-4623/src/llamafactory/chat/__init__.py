from .vllm_engine import VllmEngine  # noqa: F401
