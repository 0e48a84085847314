"""Which vLLM release was the newest on a given day (knowledge/vllm/release_dates.yaml, from PyPI),
for images tagged with their build date rather than a release."""
from __future__ import annotations

from functools import lru_cache

from vllm_kb.engine.kb import resources, yamlio
from vllm_kb.engine.kb.versions import parse


@lru_cache(maxsize=1)
def _released() -> list[tuple[str, str]]:
    table = yamlio.load_cached(resources.read_text("knowledge", "vllm", "release_dates.yaml")).data["released"]
    return [(str(d), str(v)) for v, d in table.items()]


def newest() -> str:
    """The newest release the table knows."""
    return max((v for _, v in _released()), key=parse)


@lru_cache(maxsize=64)  # asked per site, of the few days a project's image tags name
def newest_by(day: str) -> tuple[str | None, str | None]:
    """(the newest release published on or before `day`, the first one after it). An image built that
    day holds the first or, when built from vLLM's main branch, something between the two."""
    rows = _released()
    before = max((v for d, v in rows if d <= day), key=parse, default=None)
    # a backport published later (0.6.6.post1 after 0.7.0) is no newer than what the image holds
    later = [v for d, v in rows if d > day and (before is None or parse(v) > parse(before))]
    return before, min(later, key=parse, default=None)


def released_on(version: str) -> str | None:
    """The day a release was first uploaded (YYYY-MM-DD), None for one the table does not know."""
    return _days().get(version)


@lru_cache(maxsize=1)
def _days() -> dict[str, str]:
    """Each release's day by name: asked for every release at each unpinned site (vLLM's own tree:
    108,000 questions), which a scan of the table answered in ~200 steps each."""
    out: dict[str, str] = {}
    for d, v in _released():
        out.setdefault(v, d)  # the first row, as the scan found it
    return out
