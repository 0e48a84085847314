"""Bilingual messages for findings, from knowledge/i18n.yaml."""
from __future__ import annotations

from vllm_kb.engine.kb.knowledge import load


def msg(_key: str, /, **kw) -> dict[str, str]:
    kb = load()
    return {lang: kb.t(_key, lang, **kw) for lang in ("en", "zh")}
