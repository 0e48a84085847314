import importlib.util


def is_vllm_available():
    return importlib.util.find_spec("vllm") is not None
