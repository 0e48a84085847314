"""A value written as a literal of each syntax a fix can write: Python, YAML, a shell word."""
from __future__ import annotations

import json
import re
import shlex
from typing import Any


def _num(v) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def py_literal(v: Any) -> str:
    if isinstance(v, bool):
        return "True" if v else "False"
    if v is None:
        return "None"
    if isinstance(v, (int, float)):
        return _num(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, dict):
        return "{" + ", ".join(f"{py_literal(str(k))}: {_member(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_member(x) for x in v) + "]"
    return repr(v)


def _member(v: Any) -> str:
    """A value inside a dict or list keeps its float: a value moved whole (rope_scaling's `factor: 4.0`
    into hf_overrides) reaches code that checks its type (transformers' rope validation wants a float)."""
    return repr(v) if isinstance(v, float) else py_literal(v)


def as_written_value(source, value: Any) -> Any:
    """A mapping value as the file's tool needs it: FlagScale flattens a YAML mapping into flags of
    its keys (engine/scan/deploy/flagscale.py), so a JSON-valued argument is one JSON string there."""
    if isinstance(source, dict) and source.get("dict_as_json") and isinstance(value, dict):
        return json.dumps(value)
    return value


def yaml_scalar(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return _num(v)
    if isinstance(v, (dict, list)):
        return json.dumps(v, ensure_ascii=False)
    s = str(v)
    if re.fullmatch(r"[A-Za-z0-9_./@:+-]+", s) and s.lower() not in ("true", "false", "yes", "no", "on", "off", "null", "~") and not re.fullmatch(r"[-+]?[\d.]+(e[-+]?\d+)?", s, re.I):
        return s
    return json.dumps(s, ensure_ascii=False)


def shell_word(v: Any) -> str:
    if isinstance(v, (dict, list)):
        return "'" + json.dumps(v, ensure_ascii=False, separators=(", ", ": ")) + "'"
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return _num(v)
    return shlex.quote(str(v))
