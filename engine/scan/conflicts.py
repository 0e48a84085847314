"""Files committed with unresolved merge-conflict markers (`<<<<<<<`, `=======`, `>>>>>>>`): each
side is read on its own (the other side's lines blanked, so line numbers hold), and what both
sides agree on is kept; a value that differs between them is unknown, never one side's guess."""
from __future__ import annotations

import re
from dataclasses import replace

from vllm_kb.engine.scan.site import Setting, Site

_START, _MID, _END = re.compile(r"^<{7}( |$)"), re.compile(r"^={7}$"), re.compile(r"^>{7}( |$)")


def has_markers(text: str) -> bool:
    return "<<<<<<<" in text and re.search(r"^<{7}", text, re.M) is not None and re.search(r"^>{7}", text, re.M) is not None


def first_marker_line(text: str) -> int:
    for i, line in enumerate(text.splitlines(), 1):
        if _START.match(line):
            return i
    return 1


def sides(text: str) -> tuple[str, str]:
    """(ours, theirs): the file as each side of every conflict would have it, line numbers kept. A
    line a side does not have becomes empty — or a lone `\\` inside a backslash-continued command,
    so the command still runs on to its next line."""
    ours: list[str] = []
    theirs: list[str] = []

    def gap(side: list[str]) -> None:
        prev = next((x for x in reversed(side) if x != ""), "")
        side.append("\\" if prev.rstrip().endswith("\\") else "")

    state = None
    for line in text.split("\n"):
        if _START.match(line):
            state = "ours"
            gap(ours)
            gap(theirs)
        elif state and _MID.match(line):
            state = "theirs"
            gap(ours)
            gap(theirs)
        elif state and _END.match(line):
            state = None
            gap(ours)
            gap(theirs)
        elif state == "ours":
            ours.append(line)
            gap(theirs)
        elif state == "theirs":
            gap(ours)
            theirs.append(line)
        else:
            ours.append(line)
            theirs.append(line)
    return "\n".join(ours), "\n".join(theirs)


def merge(a: list[Site], b: list[Site]) -> list[Site]:
    """Sites both sides have, with the values they agree on (a site only one side has is kept)."""
    by_id = {s.id: s for s in b}
    out = []
    for s in a:
        other = by_id.pop(s.id, None)
        out.append(s if other is None else _merge_site(s, other))
    return out + list(by_id.values())


def _merge_site(s: Site, o: Site) -> Site:
    for attr in ("settings", "env", "unknown"):
        mine, theirs = getattr(s, attr), getattr(o, attr)
        for name in set(mine) | set(theirs):
            x, y = mine.get(name), theirs.get(name)
            if x is not None and y is not None and x.value == y.value and x.resolved == y.resolved:
                continue
            keep = x or y
            mine[name] = replace(keep, value=None, resolved=False, note="differs between the sides of an unresolved merge conflict")
    if s.model is not None and o.model is not None and s.model.value != o.model.value:
        s.model = replace(s.model, value=None, resolved=False, note="differs between the sides of an unresolved merge conflict")
    if s.image != o.image:
        s.image = None
    if s.gpu_request != o.gpu_request:
        s.gpu_request = None
    return s


__all__ = ["has_markers", "sides", "merge", "first_marker_line", "Setting"]
