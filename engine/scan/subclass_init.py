"""What a project subclass of `vllm.LLM` hands to `super().__init__` (engine/scan/python_subclass.py
reads the subclass's calls through it): its own parameters passed on as they are, with their
defaults, and the constants it writes itself."""
from __future__ import annotations

import ast


def handed_on(init: ast.FunctionDef, own: frozenset) -> tuple[tuple, tuple]:
    """What the subclass's `super().__init__(…)` passes: its own parameters handed on as they are
    (`model=model_name`: the call's `model_name` is the model), with their defaults, and constants
    it writes itself (`max_model_len=8192`). Anything computed is not read."""
    call = next((s.value for s in init.body if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)
                 and isinstance(s.value.func, ast.Attribute) and s.value.func.attr == "__init__"
                 and isinstance(s.value.func.value, ast.Call) and isinstance(s.value.func.value.func, ast.Name)
                 and s.value.func.value.func.id == "super"), None)
    if call is None:
        return (), ()
    a = init.args
    pos = a.posonlyargs + a.args
    given = {x.arg: d for x, d in zip(pos[len(pos) - len(a.defaults):], a.defaults)}
    given.update({x.arg: d for x, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None})
    pairs = [("model", call.args[0])] if call.args else []
    pairs += [(k.arg, k.value) for k in call.keywords if k.arg is not None]
    rename: list[tuple] = []
    defaults: list[tuple] = []
    for engine, value in pairs:
        if isinstance(value, ast.Name) and value.id in own:
            rename.append((value.id, engine))
            if isinstance(d := given.get(value.id), ast.Constant) and d.value is not None:
                defaults.append((engine, d.value))
        elif isinstance(value, ast.Constant):
            defaults.append((engine, value.value))
    return tuple(rename), tuple(defaults)
