import importlib


def optional_import(module: str, name: str):
    try:
        return getattr(importlib.import_module(module), name), True
    except ImportError:
        def _missing(*args, **kwargs):
            raise ImportError(f"{module} is required for {name}")
        return _missing, False
