"""The lines of each statement of a Python text the scan parsed, for the diffs' parse check.

Each planned change to a Python file is checked to leave it parsable (engine/fix/edits.py): that
was a parse of the whole edited file per site, 459 parses of 13 MB on vLLM's own tree (a file with
66 sites parsed 66 times), about 6 % of its audit. A change that stays inside one statement that
has its lines to itself can be checked on those lines alone (engine/fix/parse_chunk.py says why
that answers the same). The statements' lines come from the tree the scan already holds: they are
a function of the text alone, so they are kept by a digest of the text (the text itself is let go
with the scan's other texts, `ScanContext.release`) and read back for any text with those bytes."""
from __future__ import annotations

import ast
import hashlib
from array import array

from vllm_kb.engine.kb.textpos import index as line_index

_HELD: dict[bytes, array] = {}
_LIMIT = 4096  # texts; a long-lived MCP server starts over past this


def digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def remember(text: str, tree: ast.Module) -> None:
    """Keep the statements of `tree` (parsed from exactly `text`) that have their lines to themselves:
    nothing but blanks before the statement on its first line (its first decorator's), nothing but
    blanks or a comment after it on its last. A text with a lone carriage return or a form feed
    (line breaks and columns that these offsets do not count the way the tokenizer does) keeps none."""
    if "\r" in text or "\f" in text:
        return
    key = digest(text)
    if key in _HELD:
        return
    lines = line_index(text)
    starts, n = lines.starts, len(text)
    out = array("I")
    stack = list(tree.body)
    while stack:
        node = stack.pop()
        for name in ("body", "orelse", "finalbody"):
            stack.extend(getattr(node, name, ()) or ())
        for name in ("handlers", "cases"):  # except clauses, match cases: not statements, their bodies are
            for part in getattr(node, name, ()) or ():
                stack.extend(part.body)
        end = node.end_lineno
        if end is None or node.end_col_offset is None:
            continue
        decorators = getattr(node, "decorator_list", None)
        first = decorators[0].lineno if decorators else node.lineno
        head = text[starts[first - 1]:starts[first] if first < len(starts) else n]
        lead = head.lstrip(" \t")
        if decorators:
            if not lead.startswith("@"):
                continue
        elif lead.startswith("elif") or lines.offset(first, node.col_offset) - starts[first - 1] != len(head) - len(lead):
            continue  # an elif's own lines are no statement alone; or something stands before it on its line
        tail = text[lines.offset(end, node.end_col_offset):starts[end] if end < len(starts) else n].strip(" \t\n")
        if tail and not tail.startswith("#"):
            continue  # `x = 1; y = 2`, a line continued after it
        out.append(first)
        out.append(end)
    if len(_HELD) >= _LIMIT:
        _HELD.clear()
    _HELD[key] = out


def spans(text: str) -> array | None:
    """(first line, last line) pairs, flat, of the statements `remember` kept for a text with these bytes."""
    return _HELD.get(digest(text)) if _HELD else None
