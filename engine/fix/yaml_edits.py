"""Edits of a YAML file built from the parser's positions (engine/kb/yamlpos.py): a value is
replaced by writing exactly its own bytes, a key is added as a new line at its mapping's
indentation (or inside `{…}`), a key is removed only when its line holds nothing else (a comment
after it stays), list items the same way. Every function returns the edits or None when the
file's shape does not allow a safe edit (an anchored value, a key inherited through `<<`, an
entry sharing its line with another): that change is then left for a person."""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from vllm_kb.engine.fix.edits import TextEdit
from vllm_kb.engine.fix.flow_edits import flow_cut, flow_gap
from vllm_kb.engine.fix.yaml_scalars import key, scalar
from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.kb.yamlpos import DocPositions, Node, json_positions


@lru_cache(maxsize=64)
def docs(text: str) -> tuple[DocPositions, ...] | None:
    """Positions of every document of a file's text; None when it does not parse."""
    if text.lstrip()[:1] in ("{", "["):
        js = json_positions(text)
        if js is not None:
            return (js,)
    try:
        return tuple(yamlio.positions(text))
    except yamlio.YamlError:
        return None


def doc(text: str, index: int = 0) -> DocPositions | None:
    got = docs(text)
    return got[index] if got is not None and 0 <= index < len(got) else None


# --- text helpers -----------------------------------------------------------------------------

def _line_start(text: str, i: int) -> int:
    return text.rfind("\n", 0, i) + 1


def _next_line(text: str, i: int) -> int | None:
    """Start of the line after the one holding offset i; None when that line is the last."""
    j = text.find("\n", i)
    return None if j < 0 else j + 1


def _content_end(n: Node) -> int:
    return n.end if not n.null else n.start


def _insert_lines(text: str, after: int, lines: list, d: DocPositions, container: tuple, group: tuple) -> list[TextEdit]:
    """New lines after the line holding offset `after` (edits.apply writes the file's line ending),
    into the collection at `container`. A line given as (claim, text) opens a new key: an edit of
    its own, written once however many changes open it; the lines of one `group` stay together."""
    nxt = _next_line(text, after)
    if nxt is None and (not text or text.endswith("\n")):
        nxt = len(text)
    at = len(text) if nxt is None else nxt
    order = (-len(container), json.dumps([d.start] + [str(p) for p in group]))
    out: list[TextEdit] = []
    for x in lines:
        c, x = x if isinstance(x, tuple) else (None, x)
        body = "\n" + x if nxt is None else x + "\n"
        if c is None and out and out[-1].claim is None:
            out[-1] = TextEdit(at, at, out[-1].text + body, None, order)
        else:
            out.append(TextEdit(at, at, body, ("yaml", d.start) + tuple(c) if c is not None else None, order))
    return out + [_fills(d, container)]


def _fills(d: DocPositions, path: tuple) -> TextEdit:
    """Says "this change adds to the collection at `path`": written once for any number of
    additions, it conflicts with the removal of that collection's last entry (which writes
    `{}`/`[]` after its key), so the two never land in one pass."""
    return TextEdit(0, 0, "", ("fill", d.start) + tuple(path))


def _step(d: DocPositions, path: tuple) -> int:
    """The indentation step a mapping's file uses (2 unless its nesting says otherwise)."""
    n = d.get(path)
    parent = d.get(path[:-1]) if path else None
    if n is not None and parent is not None and n.kind == "map" and not n.flow and parent.kind == "map" and not parent.flow:
        if n.col > parent.col:
            return n.col - parent.col
    return 2


# --- values -----------------------------------------------------------------------------------

def set_value(text: str, d: DocPositions, path: tuple, value: Any) -> list[TextEdit] | None:
    """Write `value` at `path`. A mapping value given a dict is changed key by key (keys set to
    None are removed); a path that is not written yet is inserted in its mapping."""
    n = d.get(path)
    if n is None:
        if not path:
            return None
        return insert(text, d, path[:-1], path[-1:], value)
    if n.anchored:
        return None
    if isinstance(value, dict) and n.kind == "map" and not n.alias:
        out: list[TextEdit] = []
        for k, v in value.items():
            sub = path + (str(k),)
            child = d.get(sub)
            if v is None:
                if child is not None:
                    got = remove(text, d, sub)
                    if got is None:
                        return None
                    out += got
                continue
            if child is not None and child.kind == "scalar" and not child.null and _reads_as(child, v):
                continue
            got = set_value(text, d, sub, v)
            if got is None:
                return None
            out += got
        return out
    lit = scalar(value, n, d.json)
    if n.null:
        return [TextEdit(n.start, n.end, " " + lit, strict=True)]
    if n.kind != "scalar" and not n.flow and not n.alias:
        return None  # a block collection turned into a scalar: a person decides
    return [TextEdit(n.start, n.end, lit)]


def _reads_as(n: Node, v: Any) -> bool:
    import yaml

    try:
        return yaml.safe_load(scalar(v)) == yaml.safe_load(f"{n.style}{n.value}{n.style}" if n.style in ('"', "'") else str(n.value))
    except Exception:  # noqa: BLE001
        return False


def insert(text: str, d: DocPositions, base: tuple, keys: tuple, value: Any) -> list[TextEdit] | None:
    """Add `keys` (a chain of nested keys) with `value` under the mapping at `base`, creating the
    mappings of the chain that are not written yet."""
    full = tuple(base) + tuple(keys)
    depth = len(full) - 1
    while depth > 0 and d.get(full[:depth]) is None:
        depth -= 1
    at, rest = full[:depth], full[depth:]
    n = d.get(at)
    if n is None:
        return None
    if n.kind == "map" and n.flow:
        first = d.get(at + (n.children[0],)) if n.children else None
        quoted = d.json or (first is not None and first.key is not None and text[first.key[0]:first.key[0] + 1] == '"')
        entry = _flow_entry(rest, value, quoted)  # {"a": 1} gets "b": 2, as JSON
        if n.children:
            last = d.get(at + (n.children[-1],))
            return [TextEdit(_content_end(last), _content_end(last), ", " + entry, strict=True), _fills(d, at)]  # type: ignore[arg-type]
        close = text.rfind("}", n.start, n.end)
        return [TextEdit(close, close, entry, ("flow", close), strict=True), _fills(d, at)] if close >= 0 else None
    group = at + rest[:1]
    if n.kind == "map":
        if n.anchored or n.alias:
            return None
        lines = _block_entry(rest, value, n.col, _step(d, at), at)
        return _insert_lines(text, _content_end(_last_leaf(d, at)), lines, d, at, group)
    if n.kind == "scalar" and (n.null or str(n.value).lower() in ("null", "~")) and not n.anchored:
        if not at:
            # an empty document: the new keys open it
            return _insert_lines(text, len(text), _block_entry(rest, value, 0, 2), d, at, group)
        if n.null:
            parent = d.get(at[:-1])
            col = (n.key[0] - _line_start(text, n.key[0])) if n.key else 0
            step = _step(d, at[:-1]) if parent is not None else 2
            return _insert_lines(text, n.start, _block_entry(rest, value, col + step, step, at), d, at, group)
        return [TextEdit(n.start, n.end, _flow_entry(rest, value, d.json).join("{}"))]
    return None


def _last_leaf(d: DocPositions, path: tuple) -> Node:
    n = d.get(path)
    while n.kind != "scalar" and not n.flow and not n.alias and n.children:  # type: ignore[union-attr]
        path = path + (n.children[-1],)  # type: ignore[union-attr]
        n = d.get(path)
    return n  # type: ignore[return-value]


def _flow_entry(keys: tuple, value: Any, js: bool = False) -> str:
    name = (lambda k: json.dumps(k, ensure_ascii=False)) if js else key
    out = scalar(value, js=js)
    for k in reversed(keys[1:]):
        out = f"{{{name(str(k))}: {out}}}"
    return f"{name(str(keys[0]))}: {out}"


def _block_entry(keys: tuple, value: Any, col: int, step: int, claim: tuple = ()) -> list:
    """`a:⏎  b: v` at column `col`; a mapping or a list value is written as nested lines too. A
    line that opens a key others may add to is (claim, text)."""
    lines: list = []
    for i, k in enumerate(keys[:-1]):
        lines.append((claim + tuple(keys[:i + 1]), " " * (col + i * step) + key(str(k)) + ":"))
    inner = col + (len(keys) - 1) * step
    last = claim + tuple(keys)
    if isinstance(value, dict) and value and all(v is not None for v in value.values()):
        lines.append((last, " " * inner + key(str(keys[-1])) + ":"))
        for k, v in value.items():
            lines += _block_entry((k,), v, inner + step, step, last)
        return lines
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):  # an argv: one item a line
        lines.append((last, " " * inner + key(str(keys[-1])) + ":"))
        lines += [" " * (inner + step) + "- " + scalar(v) for v in value]
        return lines
    lines.append(" " * inner + f"{key(str(keys[-1]))}: {scalar(value)}")
    return lines


# --- removals ---------------------------------------------------------------------------------

def remove(text: str, d: DocPositions, path: tuple) -> list[TextEdit] | None:
    """Remove a mapping entry or a list item; its line goes only when nothing but it is written there."""
    n = d.get(path)
    parent = d.get(path[:-1]) if path else None
    if n is None or parent is None or n.anchored:
        return None
    if parent.kind == "seq":
        return remove_items(text, d, path[:-1], path[-1], path[-1])
    if n.key is None:
        return None
    if parent.flow:
        return [flow_cut(text, n.key[0], _content_end(n))]
    ls = _line_start(text, n.key[0])
    if text[ls:n.key[0]].strip():
        return None  # `- key: v`: the key shares its line with the item's dash
    out = [_line_cut(text, ls, n.key[0], _content_end(n))]
    if len(parent.children) == 1 and path[:-1]:
        gp = d.get(path[:-2])
        if parent.key is None or gp is None or gp.kind != "map":
            return None
        out.append(_empty_marker(text, parent.key[1], "{}", d, path[:-1]))
    return out


def remove_items(text: str, d: DocPositions, seq: tuple, i: int, j: int) -> list[TextEdit] | None:
    """Remove items i..j (inclusive) of the list at `seq`."""
    s = d.get(seq)
    if s is None or s.kind != "seq" or s.alias or s.anchored:
        return None
    first, last = d.get(seq + (i,)), d.get(seq + (j,))
    if first is None or last is None:
        return None
    if s.flow:
        return [flow_cut(text, first.start, _content_end(last))]
    if first.dash is None:
        return None
    ls = _line_start(text, first.dash)
    if text[ls:first.dash].strip():
        return None
    out = [_line_cut(text, ls, first.dash, _content_end(last))]
    if j - i + 1 == len(s.children):
        if s.key is None:
            return None
        out.append(_empty_marker(text, s.key[1], "[]", d, seq))
    return out


def _line_cut(text: str, ls: int, start: int, end: int) -> TextEdit:
    """Lines ls…(line of end), or, when a comment follows on the last line, up to the comment."""
    nxt = _next_line(text, end)
    stop = len(text) if nxt is None else nxt
    tail = text[end:stop].strip(" \t\r\n")
    if tail.startswith("#"):
        c = text.index("#", end)
        return TextEdit(start, c, "")
    if nxt is None and ls > 0:
        return TextEdit(ls - 1 - (text[ls - 2:ls - 1] == "\r"), stop, "")  # the last line: take the break before it
    return TextEdit(ls, stop, "")


def _empty_marker(text: str, key_end: int, marker: str, d: DocPositions, path: tuple) -> TextEdit:
    """`parent:` whose last entry goes reads `parent: {}` (or `[]`), not null."""
    colon = text.index(":", key_end)
    return TextEdit(colon + 1, colon + 1, " " + marker, ("fill", d.start) + tuple(path))


# --- lists ------------------------------------------------------------------------------------

def append_items(text: str, d: DocPositions, seq: tuple, values: list[Any]) -> list[TextEdit] | None:
    s = d.get(seq)
    if s is None or s.kind != "seq" or s.alias or s.anchored:
        return None
    like = d.get(seq + (s.children[-1],)) if s.children else None
    items = [d.get(seq + (i,)) for i in s.children]
    style = items[0] if items else None  # quoting as the list's first item
    quoted = next((c for c in items if c is not None and c.kind == "scalar" and c.style in ('"', "'")), None)
    lits = []
    for v in values:
        lit = scalar(v, style, d.json)
        if lit.startswith('"') and quoted is not None and quoted.style == "'" and not d.json:
            lit = scalar(v, quoted)  # a value that needs quotes gets the list's own kind
        lits.append(lit)
    if s.flow:
        if s.children:
            end = _content_end(like)  # type: ignore[arg-type]
            gap = flow_gap(text, like.start, end)  # type: ignore[union-attr]
            return [TextEdit(end, end, gap + gap.join(lits), strict=True), _fills(d, seq)]
        close = text.rfind("]", s.start, s.end)
        return [TextEdit(close, close, ", ".join(lits), ("flow", close), strict=True), _fills(d, seq)] if close >= 0 else None
    col = (like.dash - _line_start(text, like.dash)) if like is not None and like.dash is not None else s.col
    return _insert_lines(text, _content_end(_last_leaf(d, seq)), [" " * col + "- " + x for x in lits], d, seq, seq + ("-",))
