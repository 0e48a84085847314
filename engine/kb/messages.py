"""Bilingual messages for findings, from knowledge/i18n.yaml; how a number reads in them, and how a
knowledge text's `{fact.path}` placeholders are filled from a site's facts."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.kb.knowledge import load


def msg(_key: str, /, **kw) -> dict[str, str]:
    kb = load()
    return {lang: kb.t(_key, lang, **kw) for lang in ("en", "zh")}


def num(v) -> str:
    if v is None:
        return "?"
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, int) and abs(v) >= 10_000:
        return f"{v:,}"  # token and block counts
    if isinstance(v, float):
        return str(int(v)) if v.is_integer() else f"{v:g}"
    return str(v)


_PLACEHOLDER = re.compile(r"\{([a-z_]+(?:\.[A-Za-z0-9_]+)+)\}")


def placeholders(text: str) -> list[str]:
    return _PLACEHOLDER.findall(text)


def render(text: str, values: dict[str, Any]) -> str:
    def sub(m):
        v = values.get(m.group(1))
        if v is None:
            return "?"
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, float) and v.is_integer():
            return str(int(v))
        if isinstance(v, (list, tuple)):
            return ", ".join(str(x) for x in v)
        return str(v)
    return _PLACEHOLDER.sub(sub, text)


def lookup(facts: dict, dotted: str):
    cur: Any = facts
    for part in dotted.split("."):
        if not isinstance(cur, dict) or part not in cur:
            return None
        cur = cur[part]
    return cur
