"""Text edits that apply a change where the setting is written — a flag's words in a shell
command, a kwarg or dict entry in Python, a key in a YAML file — keeping every other byte
(comments, quoting, line continuations) as it was. Used for the report's diffs and `--fix`."""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from vllm_kb.engine.kb.textpos import LineIndex, index as line_index


@dataclass(frozen=True)
class TextEdit:
    start: int
    end: int
    text: str


class EditConflict(ValueError):
    pass


def apply(text: str, edits: list[TextEdit]) -> str:
    """Apply edits given against the original text; insertions at one point keep their order.
    An insertion that falls inside a span another edit removes moves to where the removal starts
    (appending after a last argument that is itself removed); one inside a replaced span moves
    after the replacement."""
    spans = [e for e in edits if e.end > e.start]
    moved = []
    for e in edits:
        if e.start == e.end:
            for d in spans:
                if d.start < e.start <= d.end:
                    at = d.start if not d.text else d.end
                    e = TextEdit(at, at, e.text)
                    break
        moved.append(e)
    edits = moved
    ordered = sorted(enumerate(edits), key=lambda e: (e[1].start, e[1].end, e[0]))
    out, pos = [], 0
    for _, e in ordered:
        if e.start < pos:
            raise EditConflict(f"overlapping edits at offset {e.start}")
        out.append(text[pos:e.start])
        out.append(e.text)
        pos = e.end
    out.append(text[pos:])
    return "".join(out)


def unified_diff(path: str, old: str, new: str, context: int = 2) -> str:
    lines = difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                 fromfile=f"a/{path}", tofile=f"b/{path}", n=context)
    out = "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)
    return out


def _line_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    ls = text.rfind("\n", 0, start) + 1
    le = text.find("\n", end)
    return ls, (len(text) if le < 0 else le)


def remove_words(text: str, start: int, end: int) -> TextEdit:
    """Delete a span of shell words; the whole line when nothing else (but `\\`) is on it."""
    ls, le = _line_bounds(text, start, end)
    before, after = text[ls:start], text[end:le]
    if not before.strip() and after.strip() == "" and ls > 0:
        # the command's last line: the line before must lose its continuation backslash too
        prev = text[:ls - 1]
        m = re.search(r"[ \t]*\\$", prev)
        if m:
            return TextEdit(m.start(), le, "")
    if not before.strip() and after.strip() in ("", "\\"):
        return TextEdit(ls, min(le + 1, len(text)), "")
    s = start
    while s > ls and text[s - 1] in " \t":
        s -= 1
    if s == ls:  # words open the line: eat the spaces after them instead
        e = end
        while e < le and text[e] in " \t":
            e += 1
        return TextEdit(start, e, "")
    return TextEdit(s, end, "")


def above_comments(text: str, line_start: int) -> int:
    """The start of the block of `#` comment lines right above a line (no blank line between),
    else the line itself: a new line goes above the comments that belong to the command —
    descriptions and `# vllm-kb: ignore[…]` suppressions stay attached to it."""
    pos = line_start
    while pos > 0:
        prev = text.rfind("\n", 0, pos - 1) + 1
        stripped = text[prev:pos].strip()
        if not stripped.startswith("#") or stripped.startswith("#!"):
            break
        pos = prev
    return pos


def indent_of(line: str, chars: str = " \t") -> str:
    """What a line starts with of `chars` (its indent)."""
    return line[: len(line) - len(line.lstrip(chars))]


def insert_before_line(text: str, offset: int, new_line: str) -> TextEdit:
    ls, _ = _line_bounds(text, offset, offset)
    indent = indent_of(text[ls:])
    at = above_comments(text, ls)
    return TextEdit(at, at, f"{indent}{new_line}\n")


def append_shell_arg(text: str, words: list, first: int, last: int, new: str) -> TextEdit:
    """Add an argument to a command spanning words[first..last], before a trailing "$@"."""
    tail = words[last]
    if tail.is_all_args and last > first:
        ls, _ = _line_bounds(text, tail.start, tail.start)
        if not text[ls:tail.start].strip():  # "$@" on its own continuation line
            indent = text[ls:tail.start]
            return TextEdit(ls, ls, f"{indent}{new} \\\n")
        return TextEdit(tail.start, tail.start, f"{new} ")
    ls, _ = _line_bounds(text, tail.start, tail.start)
    multi = words[first].line != tail.line
    if multi:  # one argument per continuation line: add a line of the same indent
        indent = indent_of(text[ls:])
        return TextEdit(tail.end, tail.end, f" \\\n{indent}{new}")
    return TextEdit(tail.end, tail.end, f" {new}")


def remove_python_item(text: str, start: int, end: int) -> TextEdit:
    """Delete `key=value` / `"key": value` with the comma that separates it from its neighbours."""
    n = len(text)
    e = end
    while e < n and text[e] in " \t":
        e += 1
    if e < n and text[e] == ",":
        e += 1
        while e < n and text[e] in " \t":
            e += 1
        ls, le = _line_bounds(text, start, start)
        if not text[ls:start].strip() and (e >= n or text[e] in "\n#"):
            # the entry had its own line: drop the line (and a trailing comment stays out of it)
            stop = text.find("\n", e)
            return TextEdit(ls, n if stop < 0 else stop + 1, "")
        return TextEdit(start, e, "")
    # last entry without a trailing comma: take the comma before it
    s = start
    while s > 0 and text[s - 1] in " \t\n":
        s -= 1
    if s > 0 and text[s - 1] == ",":
        return TextEdit(s - 1, end, "")
    return TextEdit(start, end, "")


def insert_python_kwarg(text: str, call, lines: LineIndex, new: str) -> TextEdit:
    """Add `new` (e.g. `kv_cache_dtype="fp8"`) as the call's last argument, in its layout."""
    items = list(call.args) + [k for k in call.keywords]
    close = lines.offset(call.end_lineno, call.end_col_offset) - 1  # the ')'
    if not items:
        return TextEdit(close, close, new)
    last = max(items, key=lambda n: (n.end_lineno, n.end_col_offset))
    last_end = lines.offset(last.end_lineno, last.end_col_offset)
    between = text[last_end:close]
    multiline = call.lineno != last.end_lineno or "\n" in between
    if multiline:
        first = min(items, key=lambda n: (n.lineno, n.col_offset))
        fs = lines.offset(first.lineno, first.col_offset)
        ls = text.rfind("\n", 0, fs) + 1
        indent = text[ls:fs] if not text[ls:fs].strip() else "    "
        if between.lstrip().startswith(","):
            comma = last_end + between.index(",")
            return TextEdit(comma + 1, comma + 1, f"\n{indent}{new},")
        return TextEdit(last_end, last_end, f",\n{indent}{new}")
    if between.strip().startswith(","):
        comma = last_end + between.index(",")
        return TextEdit(comma + 1, comma + 1, f" {new},")
    return TextEdit(last_end, last_end, f", {new}")


def yaml_block(text: str, key_line: int, key_lines: list[int]) -> tuple[int, int]:
    """Offsets of a top-level key's line plus the indented lines of its value."""
    idx = line_index(text)
    start = idx.line_start(key_line)
    nxt = next((k for k in sorted(key_lines) if k > key_line), None)
    lines = text.splitlines(keepends=True)
    end_line = key_line
    while end_line < len(lines) and (nxt is None or end_line + 1 < nxt):
        candidate = lines[end_line]
        if candidate.startswith((" ", "\t")) or not candidate.strip():
            end_line += 1
        else:
            break
    # do not swallow blank lines that separate this key from the next one
    while end_line > key_line and not lines[end_line - 1].strip():
        end_line -= 1
    end = idx.line_start(end_line + 1) if end_line < len(lines) else len(text)
    return start, end
