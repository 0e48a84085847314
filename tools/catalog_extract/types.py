"""The coarse type of an argument, one rule for the sources and the reference extraction alike."""
from __future__ import annotations

import re


def arg_type(annotation: str | None, default=None, choices=None) -> str:
    """A coarse type for parsing values: bool | int | float | str | list | dict."""
    if choices and all(isinstance(c, int) and not isinstance(c, bool) for c in choices):
        return "int"
    a = re.sub(r"\s+", " ", (annotation or "")).strip("\"' ").replace("[ ", "[")
    if not a:
        if isinstance(default, bool):
            return "bool"
        if isinstance(default, int):
            return "int"
        if isinstance(default, float):
            return "float"
        return "str"
    a = re.sub(r"^(Optional|Union)\[(.*)\]$", r"\2", a)
    parts = [p.strip() for p in re.split(r"\||,(?![^\[]*\])", a)]
    core = [p for p in parts if p not in ("None", "NoneType", "")]
    head = core[0].lower() if core else ""
    if core and all(p == "bool" for p in core):
        return "bool"
    if head == "int":
        return "int"
    if head == "float":
        return "float"
    if head.startswith(("list", "set", "tuple", "sequence")):
        return "list"
    if head.startswith(("dict", "mapping")) or core[0].endswith("Config") or core[0] in ("HfOverrides",):
        return "dict"
    return "str"
