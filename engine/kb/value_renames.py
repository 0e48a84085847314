"""The checks `kb validate` runs on renames.yaml `values`: each replaced value really leaves the
catalog at `last`, and its successor is accepted after it."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any


def check(cat: Any, rows: list | None, add: Callable[[str, str, str], None]) -> None:
    """add(what, where, problem) for every row the catalog contradicts."""
    for i, r in enumerate(rows or []):
        path = tuple(r["path"].split("."))
        old, new = (cat.value_history(path, r[k]) or ["?"] for k in ("old", "new"))
        if str(r["last"]) != old[-1] or new[-1] in (str(r["last"]), "?"):
            add(r["old"], f"values[{i}]", f"catalog: {r['old']} last in {old[-1]}, {r['new']} last in {new[-1]}")
