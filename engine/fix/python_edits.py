"""Text edits of Python source: a keyword argument or dict entry removed with its comma, a statement
removed with its line or its `;`, a keyword argument added in the call's own layout."""
from __future__ import annotations

import re

from vllm_kb.engine.fix.edits import TextEdit, indent_of, line_bounds
from vllm_kb.engine.kb.textpos import LineIndex


def remove_python_item(text: str, start: int, end: int) -> TextEdit | list[TextEdit]:
    """Delete `key=value` / `"key": value` with the comma that separates it from its neighbours.
    An item alone on its line takes the line with it (and the comment after it, which was about
    it); no line is left empty, no space left hanging at a line's end, and a comment after an
    item that stays keeps its place."""
    n = len(text)
    ls, le = line_bounds(text, start, end)
    alone = not text[ls:start].strip()
    e = end
    while e < n and text[e] in " \t":
        e += 1
    if e < n and text[e] == ",":
        comma = e
        e += 1
        while e < n and text[e] in " \t":
            e += 1
        if e >= n or text[e] in "\r\n#":  # nothing but a comment after it on its line
            if alone:
                stop = text.find("\n", e)
                return TextEdit(ls, n if stop < 0 else stop + 1, "")
            s = start
            while s > ls and text[s - 1] in " \t":
                s -= 1
            return TextEdit(s, comma + 1 if text[e:e + 1] == "#" else e, "")  # `a=1, b=2,` → `a=1,`
        return TextEdit(start, e, "")
    # the last entry, without a trailing comma: take the comma before it
    s = start
    while s > 0 and text[s - 1] in " \t\r\n":
        s -= 1
    after = text[end:le].strip()
    if alone and (not after or after.startswith("#")):  # its own line: the line goes, and the comma before it
        line = TextEdit(ls, min(le + 1, n), "")
        return [TextEdit(s - 1, s, ""), line] if s > 0 and text[s - 1] == "," else line
    if s > 0 and text[s - 1] == ",":
        return TextEdit(s - 1, end, "")
    return TextEdit(start, end, "")


def remove_argv_items(source: dict | None, span: tuple[int, int] | None, text: str) -> TextEdit | list[TextEdit] | None:
    """An option's items (`"--flag"` or `"--flag", "value"`) taken out of the list literal that
    writes them, with their comma; None unless each is a string element the scan placed
    (engine/scan/python_argv_forms.py literal_positions) and they sit side by side, only
    commas and blanks between them (a comment between is a person's to move)."""
    pos = (source or {}).get("argv_pos")
    if span is None or not isinstance(pos, list) or span[1] >= len(pos):
        return None
    where = pos[span[0]:span[1] + 1]
    if not where or any(not isinstance(p, tuple) for p in where):
        return None
    for (_, end), (start, _) in zip(where, where[1:]):
        if not re.fullmatch(r"\s*,\s*", text[end:start]):
            return None
    return remove_python_item(text, where[0][0], where[-1][1])


def remove_statement(text: str, start: int, end: int) -> TextEdit:
    """A Python statement: its whole line when nothing else is on it (a comment after it goes
    too, it was about the statement), else just the statement and a `;` that joins it to the
    next or the previous one."""
    ls, le = line_bounds(text, start, end)
    before, after = text[ls:start], text[end:le].rstrip("\r")
    if not before.strip() and (not after.strip() or after.strip().startswith("#")):
        return TextEdit(ls, min(le + 1, len(text)), "")
    m = re.compile(r"[ \t]*;[ \t]*").match(text, end)
    if m:
        return TextEdit(start, m.end(), "")
    s = start
    while s > ls and text[s - 1] in " \t":
        s -= 1
    if s > ls and text[s - 1] == ";":
        s -= 1
        while s > ls and text[s - 1] in " \t":
            s -= 1
        return TextEdit(s, end, "")
    return TextEdit(start, end, "")


def insert_python_kwarg(text: str, call, lines: LineIndex, new: str) -> TextEdit | list[TextEdit]:
    """Add `new` (e.g. `kv_cache_dtype="fp8"`) as the call's last argument, in its layout: inline
    after `, `; one per line at the last argument's indent, with a trailing comma when the call
    has one; after the comment that ends the last argument's line, never in front of it."""
    items = list(call.args) + [k for k in call.keywords]
    close = lines.offset(call.end_lineno, call.end_col_offset) - 1  # the ')'
    if not items:
        return TextEdit(close, close, new)
    last = max(items, key=lambda n: (n.end_lineno, n.end_col_offset))
    last_end = lines.offset(last.end_lineno, last.end_col_offset)
    between = text[last_end:close]
    # one per line when the arguments span lines or open on a line of their own; all on the
    # call's line (whatever line the parenthesis closes on): inline
    first = min(items, key=lambda n: (n.lineno, n.col_offset))
    if first.lineno == call.lineno and last.end_lineno == call.lineno:
        if between.strip().startswith(","):
            comma = last_end + between.index(",")
            return TextEdit(comma + 1, comma + 1, f" {new},")
        return TextEdit(last_end, last_end, f", {new}")
    indent = _item_indent(text, call, items, lines)
    trailing = between.lstrip().startswith(",")
    after = last_end + between.index(",") + 1 if trailing else last_end
    le = text.find("\n", after)
    rest = text[after:le].strip() if le >= 0 else ""
    if 0 <= le < close and (not rest or rest.startswith("#")):  # the last argument ends its line: a line after it
        if trailing:
            return TextEdit(le + 1, le + 1, f"{indent}{new},\n")
        # the comma the last argument lacks is written once however many arguments are added (claim),
        # and lines added together are joined by commas (joined): two were `x=1,,` then `a=1` `b=2`
        return [TextEdit(last_end, last_end, ",", claim=("comma", last_end)),
                TextEdit(le + 1, le + 1, f"{indent}{new}\n", joined=True)]
    if trailing:
        return TextEdit(after, after, f"\n{indent}{new},")
    return TextEdit(last_end, last_end, f",\n{indent}{new}")


def _item_indent(text: str, call, items: list, lines: LineIndex) -> str:
    """The indent of a call's arguments that are one per line: the last one's (aligned under the
    parenthesis or indented by a level), else a level under the call's line."""
    last = max(items, key=lambda n: (n.end_lineno, n.end_col_offset))
    at = lines.offset(last.lineno, last.col_offset)
    ls = text.rfind("\n", 0, at) + 1
    if not text[ls:at].strip():
        return text[ls:at]
    line = text[ls:text.find("\n", ls) if "\n" in text[ls:] else len(text)]
    own = indent_of(line)
    return own + ("    " if ls == lines.line_start(call.lineno) else "")
