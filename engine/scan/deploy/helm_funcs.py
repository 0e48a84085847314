"""Sprig's conversions, comparisons and `semverCompare`, as a chart's conditions use them on its own values
(`{{- if eq (.Values.api.gpus | int) 0 }}`, `{{- if semverCompare "<v0.13.0" .Values.image.version }}`).
Without them the branch that holds the container's image or its args is left out as unknown, and the whole
launch with it. Anything outside the plain forms read here stays unknown (helm_render.UNKNOWN)."""
from __future__ import annotations

import re
from typing import Any


def call(name: str, a: list, unknown: Any) -> Any:
    """`name` applied to known arguments `a`, or `unknown`."""
    if name in ("int", "int64", "atoi") and len(a) == 1:
        return _int(a[0], unknown)
    if name == "float64" and len(a) == 1:
        n = _number(a[0])
        return unknown if n is None else float(n)
    if name in ("gt", "ge", "lt", "le") and len(a) == 2:
        x, y = a
        if isinstance(x, bool) or isinstance(y, bool) or type(x) is not type(y) or not isinstance(x, (int, float, str)):
            return unknown  # Go's template compares only values of one basic kind; mixed ones are an error
        return {"gt": x > y, "ge": x >= y, "lt": x < y, "le": x <= y}[name]
    if name == "has" and len(a) == 2:  # `has NEEDLE LIST`
        return False if a[1] is None else (a[0] in a[1] if isinstance(a[1], list) else unknown)
    if name == "contains" and len(a) == 2 and all(isinstance(x, str) for x in a):
        return a[0] in a[1]
    if name == "semverCompare" and len(a) == 2 and all(isinstance(x, str) for x in a):
        return _semver(a[0], a[1], unknown)
    return unknown


def _number(v) -> int | float | None:
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, (int, float)):
        return v
    if isinstance(v, str) and re.fullmatch(r"\s*-?\d+(\.\d+)?\s*", v):
        return float(v) if "." in v else int(v)
    return None


def _int(v, unknown):
    """sprig's toInt: nil is 0, a float is cut, a number's text is read; anything else stays unknown."""
    if v is None:
        return 0
    n = _number(v)
    return unknown if n is None else int(n)


_VERSION = re.compile(r"v?(\d+)(?:\.(\d+))?(?:\.(\d+))?")
_CONSTRAINT = re.compile(r"\s*(<=|>=|!=|==|=|<|>)?\s*(v?\d+(?:\.\d+){0,2})\s*")


def _semver(constraint: str, version: str, unknown):
    """One comparison (`<v0.13.0`, `>= 1.2`) against a plain release; a range, a wildcard or a pre-release
    (whose ordering Masterminds' semver treats apart) stays unknown."""
    m, v = _CONSTRAINT.fullmatch(constraint), _VERSION.fullmatch(version.strip())
    if m is None or v is None:
        return unknown
    c = _VERSION.fullmatch(m.group(2))
    if c is None:
        return unknown
    left = tuple(int(x or 0) for x in v.groups())
    right = tuple(int(x or 0) for x in c.groups())
    op = m.group(1) or "="
    return {"<": left < right, "<=": left <= right, ">": left > right, ">=": left >= right,
            "=": left == right, "==": left == right, "!=": left != right}[op]
