"""Whether a constructor of vLLM that serving wrappers call takes a keyword in a release, from
knowledge/frameworks/vllm_classes.json (tools/vllm_class_kwargs.py). A small table of its own, so
that a script that only builds SamplingParams does not load vLLM's whole symbol table. Every
answer is None where the table cannot tell (a class it does not hold, a release where the class
is open or absent, a release it did not read at the edge of a run)."""
from __future__ import annotations

import json
from functools import lru_cache

from vllm_kb.engine.kb import resources
from vllm_kb.engine.kb.vllm_symbols import resolves_in


@lru_cache(maxsize=1)
def table() -> dict:
    return json.loads(resources.read_text("knowledge", "frameworks", "vllm_classes.json"))


def read_releases() -> list[str]:
    return [str(v) for v in table().get("vllm_releases") or []]


def takes(cls: str, keyword: str, vllm: str) -> bool | None:
    """Whether vLLM's `cls(…, keyword=…)` is accepted in `vllm`."""
    entry = (table().get("classes") or {}).get(cls)
    if entry is None:
        return None
    read = read_releases()
    if resolves_in(entry["defined"], vllm, read) is not True:
        return None
    if entry.get("open") and resolves_in(entry["open"], vllm, read) is not False:
        return None
    for key, names in (entry.get("keywords") or {}).items():
        if keyword in names:
            return resolves_in(key.split(" | "), vllm, read)
    return False


def keyword_spans(cls: str, keyword: str) -> list[str]:
    """The runs of releases whose `cls` takes `keyword`."""
    for key, names in (((table().get("classes") or {}).get(cls) or {}).get("keywords") or {}).items():
        if keyword in names:
            return key.split(" | ")
    return []


def is_msgspec(cls: str, vllm: str) -> bool:
    entry = (table().get("classes") or {}).get(cls) or {}
    return bool(entry.get("msgspec")) and resolves_in(entry["msgspec"], vllm, read_releases()) is True
