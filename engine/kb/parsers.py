"""Which tool-call and reasoning parser names a vLLM release registers: the catalog's enums when
it holds them (knowledge/vllm/catalog.json › enums.tool_call_parser / reasoning_parser), else
knowledge/vllm/parsers.yaml, read from the same sdists."""
from __future__ import annotations

import difflib
import re
from functools import lru_cache

from vllm_kb.engine.kb import resources, yamlio
from vllm_kb.engine.kb.versions import parse

KINDS = ("tool_call_parser", "reasoning_parser")


@lru_cache(maxsize=1)
def _table() -> dict:
    return yamlio.load_cached(resources.read_text("knowledge", "vllm", "parsers.yaml")).data


def _span(text: str) -> tuple:
    a, _, b = str(text).partition("..")
    return parse(a), parse(b or a)


def _in(version: str, span: str) -> bool:
    a, b = _span(span)
    v = parse(version)
    # a span ending at a patch release (0.10.1.1) still covers its minor line's later patches
    return a <= v <= b or (a <= v and v.release[:3] == b.release[:3])


def names(kind: str, version: str, cat=None) -> set[str] | None:
    """The names `version` registers; None before the flag existed."""
    if cat is not None:
        got = cat.allowed_values((kind,), version)
        if got and got[1] == kind and got[0]:
            return {str(x) for x in got[0]}
    table = _table()["parsers"][kind]
    out = {n for n, span in table.items() if _in(version, span)}
    return out or None


def first_release(kind: str, name: str) -> str | None:
    span = _table()["parsers"][kind].get(name)
    return str(_span(span)[0]) if span else None


def suggest(kind: str, name: str, version: str, cat=None) -> str | None:
    """What to write instead in `version`: the name that replaced a renamed one, or a close
    spelling of a registered one (qwen3-coder → qwen3_coder)."""
    have = names(kind, version, cat) or set()
    renamed = (_table().get("renamed") or {}).get(kind) or {}
    for old, new in renamed.items():
        # glm4_moe (0.10.0) became glm45 (0.10.1): either way round, the one this release has
        if name == old and new in have:
            return new
        if name == new and old in have:
            return old
    norm = {n.replace("-", "_").lower(): n for n in have}
    if name.replace("-", "_").lower() in norm:
        return norm[name.replace("-", "_").lower()]
    close = difflib.get_close_matches(name, sorted(have), n=1, cutoff=0.8)
    return close[0] if close else None


def for_model(kind: str, model: str | None, version: str, cat=None) -> str | None:
    """The parser the model family's template needs, when this release registers it; else the
    documented fallback that reads the same output and that this release has (Qwen3 on 0.8.5:
    deepseek_r1)."""
    if not model:
        return None
    low = model.lower()
    for row in (_table().get("for_models") or {}).get(kind) or []:
        if any(part and part in low for part in row["match"].split("|")):
            have = names(kind, version, cat) or set()
            return next((p for p in (row["parser"], *row.get("fallback", ())) if p in have), None)
    return None


def missing_tokens(name: str, version: str, model: str | None) -> list[str] | None:
    """The tokens reasoning parser `name` looks up in the vocabulary and raises without in
    `version`, that the model's tokenizer is known to lack (parsers.yaml token_lookup, tokens_absent);
    None when the parser does not raise there or the model is not one known to lack them."""
    row = (_table().get("token_lookup") or {}).get(name)
    if not row or not model or not _in(version, row["span"]):
        return None
    low = model.lower()
    for absent in _table().get("tokens_absent") or []:
        if re.search(absent["match"], low):
            gone = [t for t in row["tokens"] if t in absent["lacks"]]
            return gone or None
    return None
