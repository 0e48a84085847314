"""Whether a vLLM release can be installed beside a project's transformers pin: each release's own
transformers requirement (knowledge/vllm/model_types.yaml `vllm_requires`, read from its requirement
files or wheel METADATA by tools/transformers_model_types.py). Qwen2.5-Coder's requirements.txt names
`vllm` bare beside `transformers==4.39.1`: every release from 0.4.1 requires transformers>=4.40.0
(0.4.1/requirements.txt), so pip installs 0.4.0.post1 there, not the newest release."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Callable

from vllm_kb.engine.kb import resources, yamlio
from vllm_kb.engine.kb.versions import InvalidSpecifier, SpecifierSet, try_parse

_NAMED = re.compile(r"\d+(?:\.\d+)+")


@lru_cache(maxsize=1)
def _table() -> dict:
    return yamlio.load_cached(resources.read_text("knowledge", "vllm", "model_types.yaml")).data


def requires(release: str) -> str | None:
    """The release's transformers specifier (a .postN patch keeps its base's where it has no row)."""
    rows = _table().get("vllm_requires") or {}
    return rows.get(release) or rows.get(release.split(".post")[0])


def admits(pin: Any) -> Callable[[str], bool | None] | None:
    """release → whether some transformers release meets both the project's specifier and the
    release's own (None where the release states none); None when the pin cannot be read. The
    transformers releases tried: the minor releases the table dates, and every version either
    specifier names (the edges where two ranges meet: 4.39.1 of `>=4.39.1` against `<4.40`)."""
    text = (pin.exact and f"=={pin.exact}") or pin.spec
    try:
        mine = SpecifierSet(text)
    except (InvalidSpecifier, ValueError):
        return None
    if not str(mine).strip():
        return None
    table = _table()
    named = {m for spec in [text, *(table.get("vllm_requires") or {}).values()] for m in _NAMED.findall(spec)}
    tried = [v for v in set(table.get("released") or {}) | named if try_parse(v) is not None and mine.contains(v)]

    def test(release: str) -> bool | None:
        theirs = requires(release)
        if not theirs:
            return None
        try:
            spec = SpecifierSet(theirs)
        except (InvalidSpecifier, ValueError):
            return None
        return any(spec.contains(v) for v in tried)

    return test
