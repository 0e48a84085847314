from .engine import IPEXLLMClass
