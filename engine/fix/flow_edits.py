"""Edits inside a flow collection (`[…]`, `{…}`, a Dockerfile's JSON-form instruction): what goes
between the last entry and a new one, and an entry's removal with its separating comma."""
from __future__ import annotations

import re

from vllm_kb.engine.fix.edits import TextEdit

_GAP = r"(?:[ \t\r\n]|\\\r?\n)*"  # blanks, line breaks and a Dockerfile's `\` continuations


def flow_gap(text: str, start: int, end: int) -> str:
    """What goes between the last item of a […] list (text[start:end], or an item starting at
    `start` on that line) and a new one: `, ` when items share lines; a line break and the same
    indent when they are one per line (through a backslash in a Dockerfile, whose instruction
    goes on past it)."""
    ls = text.rfind("\n", 0, start) + 1
    if ls == 0 or text[ls:start].strip() or "," in text[start:end]:
        return ", "
    prev = text[text.rfind("\n", 0, ls - 1) + 1:ls - 1].rstrip()
    indent = text[ls:start]
    if prev.endswith("\\") and prev[:-1].rstrip().endswith(","):
        return f", \\\n{indent}"
    return f",\n{indent}" if prev.endswith(",") else ", "


def flow_cut(text: str, start: int, end: int) -> TextEdit:
    """An entry of […] or {…} with the comma that separates it from a neighbour, and the line
    breaks (a Dockerfile's backslash continuations too) up to that neighbour: no line is left empty."""
    m = re.compile(_GAP + "," + _GAP).match(text, end)
    if m:
        return TextEdit(start, m.end(), "", merge=_FLOW)
    b = start
    while b > 0 and (text[b - 1] in " \t\r\n" or (text[b - 1] == "\\" and text[b:b + 1] in ("\n", "\r"))):
        b -= 1
    if b > 0 and text[b - 1] == ",":
        return TextEdit(b - 1, end, "", merge=_FLOW)
    return TextEdit(start, end, "", merge=_FLOW)


_FLOW = (flow_cut, ",")  # how a removal of flow entries is placed again (engine/fix/edits.py _merge_removals)
