"""Two changes asked for one setting. Two numbers moved the same way: the one that moves it further
satisfies both. A setting one check sets and another renames at the same bytes (`xinference launch …
--gpu-memory-utilization 0.6` hands the dashed keyword on as written, which vLLM refuses: the rename to
`--gpu_memory_utilization`; L16 raises the value): written apart, one loses to the other and the value
written keeps the refused spelling; together they are one edit, the new value under the renamed key. A
flag a check adds that a rewritten `name=value` word already writes (L50's --trust-remote-code beside
`trust_remote_code=True` turned into it) is that one rewrite too."""
from __future__ import annotations

from typing import Any, Callable

from vllm_kb.engine.kb.catalog import Catalog
from vllm_kb.engine.scan.site import Site


def _number(v: Any) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def stricter(site: Site, target: str, a: Any, b: Any, cat: Catalog, version: str) -> Any | None:
    """Of two values that move a number the same way from where it is, the one that moves it
    further; None when they move it opposite ways (or it is not a number)."""
    x, y = _number(a), _number(b)
    s = site.settings.get(target)
    cur = _number(s.value) if s is not None and s.resolved else _number(cat.defaults(version).get(target))
    if x is None or y is None or cur is None:
        return None
    if x > cur and y > cur:
        return a if x >= y else b
    if x < cur and y < cur:
        return a if x <= y else b
    return None


def renamed(set_change: Any, rename: Any) -> Any | None:
    """`set_change` written under `rename`'s key, or None where the two are not one setting's bytes."""
    s = set_change.setting
    if rename is None or s is None or set_change.after is None or not rename.key \
            or (set_change.file, set_change.line) != (rename.file, rename.line):
        return None
    old = (s.key or "").split("=", 1)[0]
    if not old or not set_change.after.startswith(old):
        return None
    set_change.after = rename.key + set_change.after[len(old):]
    return set_change


def absorbed(out: list, note: str, rank: Callable[[str], int]) -> list:
    """`out` less each added flag that a rewritten word (a rename of a Setting noted `note`) already
    writes, that rename credited to its checks at the more urgent priority."""
    words = [c for c in out if c.op == "rename" and c.setting is not None and c.setting.note == note]
    if not words:
        return out
    keep = []
    for c in out:
        w = next((w for w in words if c.op == "set" and c.line is None and c.file == w.file and c.setting is None
                  and c.target == w.setting.name and c.after in (w.after, (w.after or "").replace("=", " ", 1))), None)
        if w is None:
            keep.append(c)
            continue
        w.checks += [x for x in c.checks if x not in w.checks]
        w.priority = min(w.priority, c.priority, key=rank)
    return keep
