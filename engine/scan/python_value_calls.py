"""Calls whose value a static reading can know (the call half of python_values' resolver, kept apart
so neither module outgrows its room): environment reads, conversions, containers built by `dict()` /
`list()`, joins, string methods and data files the code loads. Anything else is `Unresolved`."""
from __future__ import annotations

import ast
import json
import posixpath
from typing import Any

from vllm_kb.engine.scan import python_datafiles as datafiles
from vllm_kb.engine.scan.python_scope import Unresolved, dotted as _dotted, env_read as _env_read

_CONVERT = {"int": int, "float": float, "str": str, "bool": bool}
# Calls whose result is their first argument as far as vLLM is concerned: a model reference.
_PASSTHROUGH = {"HuggingFaceModel", "BentoModel", "Path", "PurePath", "PosixPath"}
# vLLM config classes an engine argument takes either as the object or as the dict of its fields
# (EngineArgs builds the object from a dict): `KVTransferConfig(kv_connector=...)` is that dict, and
# `KVTransferConfig.from_cli('{...}')` its JSON text.
_CONFIG_CLASSES = {"KVTransferConfig"}


def call_value(self, node: ast.Call) -> Any:
    """The value of a call `self` (a python_values._Resolver) can follow: an `os.environ` read, a
    conversion, `dict(...)`, `list/tuple(...)`, a join, a string method (`.replace` too), a data file the code reads."""
    env = _env_read(node)
    if env is not None:
        name_node, default = env
        name = self.value(name_node)
        if name in self.env:
            return self._env(name)
        if name in self.env_unknown:
            raise Unresolved(node, self.env_unknown[name])
        if default is None:
            raise Unresolved(node, f"os.environ[{name!r}] is set at run time")
        self._assume(f"default of os.environ.get({name!r})")
        return self.value(default)
    f = node.func
    fname = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
    if isinstance(f, ast.Name) and fname in _CONVERT and len(node.args) == 1 and not node.keywords:
        v = self.value(node.args[0])
        try:
            if fname == "int" and isinstance(v, str):
                return int(v.strip())
            return _CONVERT[fname](v)
        except (ValueError, TypeError):
            raise Unresolved(node, f"{fname}({v!r}) fails") from None
    if fname in _PASSTHROUGH and node.args:
        return self.value(node.args[0])
    if fname in _CONFIG_CLASSES and not node.args and all(kw.arg for kw in node.keywords):
        return {kw.arg: self.value(kw.value) for kw in node.keywords}
    if fname == "from_cli" and isinstance(f, ast.Attribute) and _dotted(f.value).split(".")[-1] in _CONFIG_CLASSES \
            and len(node.args) == 1 and not node.keywords:
        text = self.value(node.args[0])
        try:
            parsed = json.loads(text) if isinstance(text, str) else None
        except ValueError:
            parsed = None
        if isinstance(parsed, dict):
            return parsed
        raise Unresolved(node, "the config's JSON text is not a literal object")
    if isinstance(f, ast.Name) and fname == "dict":
        out = {}
        for a in node.args:
            sub = self.value(a)
            if not isinstance(sub, dict):
                raise Unresolved(a)
            out.update(sub)
        for kw in node.keywords:
            if kw.arg is None:
                sub = self.value(kw.value)
                if not isinstance(sub, dict):
                    raise Unresolved(kw.value)
                out.update(sub)
            else:
                out[kw.arg] = self.value(kw.value)
        return out
    if isinstance(f, ast.Name) and fname in ("list", "tuple") and len(node.args) == 1:
        return list(self.value(node.args[0]))
    if isinstance(f, ast.Attribute) and fname == "join" and len(node.args) == 1:
        if _dotted(f.value) in ("os.path", "posixpath"):
            pass
        else:
            sep = self.value(f.value)
            items = self.value(node.args[0])
            if isinstance(sep, str) and isinstance(items, list) and all(isinstance(i, str) for i in items):
                return sep.join(items)
    if _dotted(f) in ("os.path.join", "posixpath.join") and node.args:
        parts = [self.value(a) for a in node.args]
        if all(isinstance(p, str) for p in parts):
            import posixpath
            return posixpath.join(*parts)
    if isinstance(f, ast.Attribute) and fname in ("lower", "upper", "strip") and not node.args:
        v = self.value(f.value)
        if isinstance(v, str):
            return getattr(v, fname)()
    if isinstance(f, ast.Attribute) and fname == "replace" and len(node.args) == 2 and not node.keywords:
        v, old, new = self.value(f.value), self.value(node.args[0]), self.value(node.args[1])
        if all(isinstance(x, str) for x in (v, old, new)):
            return v.replace(old, new)  # `f"--{k.replace('_', '-')}"`: a key made a flag
    if _dotted(f) in ("torch.cuda.device_count",):
        raise Unresolved(node, "the number of GPUs the process sees at run time")
    return datafiles.load(self, node, Unresolved)  # a YAML/JSON file the code reads, else Unresolved
