"""Two readings the start-up fact modules share: a whole number as written (a bool is not one),
and whether a release is at or after another (an unknown release counts as the newest)."""
from __future__ import annotations

from vllm_kb.engine.kb.versions import Version, try_parse


def as_int(v) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def since(version: str | None, release: str) -> bool:
    v = try_parse(version) if version else None
    return v is None or not v < Version(release)
