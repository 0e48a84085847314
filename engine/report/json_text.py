"""The JSON report as text: exactly `json.dumps(data, ensure_ascii=False, indent=2)`, about three
times faster. The standard library indents in pure Python, one generator per level (its C
encoder cannot indent in the Pythons vLLM runs on), which made writing a large report take as
long as auditing it. Anything but the plain JSON types goes to json.dumps itself."""
from __future__ import annotations

import json
from json.encoder import encode_basestring
from typing import Any

_INDENT = ["\n" + "  " * i for i in range(64)]


_KEYS: dict[str, str] = {}  # a key as written, with its ": " (reports repeat a few hundred keys)


class _Other(Exception):
    pass


def _float(o: float) -> str:
    if o != o:
        return "NaN"
    if o == float("inf"):
        return "Infinity"
    if o == -float("inf"):
        return "-Infinity"
    return float.__repr__(o)


def _key(k) -> str:
    if type(k) is str:
        return k
    if k is True:
        return "true"
    if k is False:
        return "false"
    if k is None:
        return "null"
    if type(k) is int:
        return int.__repr__(k)
    if type(k) is float:
        return _float(k)
    raise _Other


def _enc(o: Any, level: int, out: list[str]) -> None:
    t = type(o)
    if t is str:
        out.append(encode_basestring(o))
    elif o is None:
        out.append("null")
    elif o is True:
        out.append("true")
    elif o is False:
        out.append("false")
    elif t is int:
        out.append(int.__repr__(o))
    elif t is float:
        out.append(_float(o))
    elif t is dict:
        if not o:
            out.append("{}")
            return
        inner = _INDENT[level + 1] if level + 1 < len(_INDENT) else "\n" + "  " * (level + 1)
        sep = "{" + inner
        comma = "," + inner
        keys = _KEYS
        for k, v in o.items():
            kt = keys.get(k) if type(k) is str else None
            if kt is None:
                kt = encode_basestring(_key(k)) + ": "
                if type(k) is str and len(keys) < 4096:
                    keys[k] = kt
            tv = type(v)
            if tv is str:
                out.append(sep + kt + encode_basestring(v))
            elif v is None:
                out.append(sep + kt + "null")
            elif v is True:
                out.append(sep + kt + "true")
            elif v is False:
                out.append(sep + kt + "false")
            elif tv is int:
                out.append(sep + kt + int.__repr__(v))
            else:
                out.append(sep + kt)
                _enc(v, level + 1, out)
            sep = comma
        out.append((_INDENT[level] if level < len(_INDENT) else "\n" + "  " * level) + "}")
    elif t is list or t is tuple:
        if not o:
            out.append("[]")
            return
        inner = _INDENT[level + 1] if level + 1 < len(_INDENT) else "\n" + "  " * (level + 1)
        sep = "[" + inner
        for v in o:
            out.append(sep)
            sep = "," + inner
            _enc(v, level + 1, out)
        out.append((_INDENT[level] if level < len(_INDENT) else "\n" + "  " * level) + "]")
    else:
        raise _Other  # a subclass, or something json.dumps would call default() for


def dumps(data: Any) -> str:
    return dumps_at(data, 0)


def dumps_at(data: Any, level: int) -> str:
    """The text of `data` as it reads at nesting `level` of a larger document."""
    out: list[str] = []
    try:
        _enc(data, level, out)
    except (_Other, RecursionError):
        text = json.dumps(data, ensure_ascii=False, indent=2)
        return text.replace("\n", "\n" + "  " * level) if level else text
    return "".join(out)
