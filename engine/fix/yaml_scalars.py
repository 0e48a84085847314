"""YAML (or JSON) text for a value that an edit writes: quoted as the value it replaces was when that
still reads back the same, plain where plain reads back as the same string."""
from __future__ import annotations

import json
import re
from typing import Any

from vllm_kb.engine.kb.yamlpos import Node

_PLAIN = re.compile(r"[A-Za-z0-9_./@+-][A-Za-z0-9_./@:+= -]*")
_RESERVED = {"true", "false", "yes", "no", "on", "off", "null", "~", "y", "n"}


def scalar(v: Any, like: Node | None = None, js: bool = False) -> str:
    """A value as YAML text, in the quoting the value it replaces used when that still reads back
    the same; as JSON in a JSON file."""
    if js:
        if isinstance(v, float) and v.is_integer():  # novermin (float.is_integer, not int.is_integer)
            v = int(v)
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, bool):
        word = "true" if v else "false"
        old = str(like.value) if like is not None and like.kind == "scalar" and not like.style else ""
        if old.lower() in ("true", "false"):  # True / TRUE as the file writes them
            return word.upper() if old.isupper() else word.capitalize() if old[0].isupper() else word
        return word
    if v is None:
        return "null"
    if isinstance(v, float) and v.is_integer():  # novermin (float.is_integer, not int.is_integer)
        v = int(v)
    if isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, dict):
        return "{" + ", ".join(f"{key(str(k))}: {scalar(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(scalar(x) for x in v) + "]"
    s = str(v)
    style = like.style if like is not None and like.kind == "scalar" else ""
    if style == "'" and "\n" not in s and _printable(s):
        return "'" + s.replace("'", "''") + "'"
    if style == '"' or not _plain_ok(s):
        return json.dumps(s, ensure_ascii=False)
    return s


def key(k: str) -> str:
    return k if _plain_ok(k) and ":" not in k and " " not in k else json.dumps(k, ensure_ascii=False)


def _printable(s: str) -> bool:
    return all(c == "\t" or (ord(c) >= 0x20 and not 0x7F <= ord(c) <= 0x9F) for c in s)


def _plain_ok(s: str) -> bool:
    """Whether `s` written plain reads back as the same string."""
    if not s or not _PLAIN.fullmatch(s) or s != s.strip() or s.lower() in _RESERVED or ": " in s or " #" in s:
        return False
    if s.startswith(("-", "?", ":")) and (len(s) == 1 or s[1] in " \t"):
        return False
    try:
        import yaml

        return yaml.safe_load(s) == s
    except Exception:  # noqa: BLE001 — anything odd is quoted
        return False
