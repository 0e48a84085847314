"""Text edits that apply a change where the setting is written — a flag's words in a shell
command, a kwarg or dict entry in Python, a key in a YAML file — keeping every other byte
(comments, quoting, line continuations) as it was. Used for the report's diffs and `--fix`."""
from __future__ import annotations

import re
from dataclasses import dataclass

from vllm_kb.engine.fix import parse_chunk
from vllm_kb.engine.fix.diff_text import _masked_lines, shown_diff, unified_diff  # noqa: F401 — their home before


@dataclass(frozen=True)
class TextEdit:
    start: int
    end: int
    text: str
    # An insertion that opens something (a YAML key new items go under): two changes that open
    # the same one write it once, and their items follow it in order.
    claim: tuple | None = None
    # Insertions at one offset: (depth, group). Deeper containers first (they continue the last
    # value), then each group (a new key with everything under it) together, in order of appearance.
    order: tuple | None = None
    # An insertion that belongs exactly where it is (after a list's last item): when another edit
    # removes the text around it, the two conflict and the insertion waits for the next pass.
    strict: bool = False
    # A removal that knows how to place itself (remove_words, flow_edits.flow_cut: (place, separators)):
    # two that overlap on what lies between them are one removal of all they remove, placed the same
    # way, as --fix's next pass would have made it (_merge_removals).
    merge: tuple | None = None
    # A line that adds an argument after a last one without a trailing comma: several at one offset
    # are one list, each but the last ending with a comma.
    joined: bool = False


class EditConflict(ValueError):
    pass


def parses_after(path: str, old: str, edits: list[TextEdit]) -> bool:
    """Whether the edits leave `path` as parsable as it was (always, for a file that is not Python)."""
    try:
        checked(path, old, edits)
    except EditConflict:
        return False
    return True


def checked(path: str, old: str, edits: list[TextEdit]) -> str:
    """apply(), and for a Python file whose text parses, an EditConflict when the result would not
    (a comma moved out of a removed last argument, a layout two edits each assumed alone): the
    change waits for --fix's next pass, planned on the text the others left, and a report's diff
    leaves it out rather than show code that does not run."""
    new = apply(old, edits)
    if path.endswith(".py") and new != old:
        import ast

        # the lines of the one statement the edits changed, where the scan knows its statements, else the whole file
        if parse_chunk.parses(old, new, _parses) or _parses(new):
            return new
        try:
            ast.parse(new)
        except (SyntaxError, ValueError):
            try:
                ast.parse(old)
            except (SyntaxError, ValueError):
                return new  # it did not parse before either: not this change's doing
            raise EditConflict("the result would not parse") from None
    return new


def _parses(text: str) -> bool:
    """True only for a text ast.parse accepts, without building its tree: symtable parses with the
    same parser and then reads the scopes, which raises for more than the parser does (`nonlocal`
    at module level, a parameter named twice) but never accepts less. About 40 % less CPU than
    ast.parse on vLLM's files (the tree's Python objects are most of the parse); False sends the
    text to ast.parse, which decides."""
    import symtable

    try:
        symtable.symtable(text, "<edited>", "exec")
    except Exception:  # noqa: BLE001 — SyntaxError, ValueError, RecursionError, MemoryError: ast.parse decides
        return False
    return True


def apply(text: str, edits: list[TextEdit]) -> str:
    """Apply edits given against the original text; insertions at one point keep their order.
    An insertion that falls inside a span another edit removes moves to where the removal starts
    (appending after a last argument that is itself removed); one inside a replaced span moves
    after the replacement."""
    seen: dict = {}
    unique = []
    for e in edits:
        if e.claim is not None:
            if e.claim in seen:
                if seen[e.claim] == e:
                    continue  # the same key opened twice: written once
                raise EditConflict(f"two different edits open {e.claim}")  # the second waits for the next pass
            seen[e.claim] = e
        unique.append(e)
    edits = _merge_removals(text, unique)
    spans = [e for e in edits if e.end > e.start]
    moved = []
    for e in edits:
        if e.start == e.end:
            for d in spans:
                if d.start < e.start <= d.end:
                    if e.start == d.end and (d.text or text[d.start:d.end].lstrip().startswith(",")):
                        # right after a rewritten span, or after an item removed with the comma before it
                        # (what precedes the insertion is still an item): it stays where it is
                        break
                    if e.strict:
                        raise EditConflict(f"an insertion at offset {e.start} inside an edit")
                    at = d.start if not d.text else d.end
                    e = TextEdit(at, at, e.text, e.claim, e.order, joined=e.joined)
                    break
        moved.append(e)
    edits = moved
    first: dict = {}
    for i, e in enumerate(edits):
        if e.order is not None:
            first.setdefault(e.order[1], i)

    def rank(item):
        i, e = item
        if e.order is None:
            return (e.start, e.end, 0, i, i)
        return (e.start, e.end, e.order[0], first[e.order[1]], i)

    ordered = sorted(enumerate(edits), key=rank)
    texts = [e.text for _, e in ordered]
    for i in range(len(ordered) - 1):  # lines added together after a last argument: joined by commas
        a, b = ordered[i][1], ordered[i + 1][1]
        if a.joined and b.joined and a.start == a.end == b.start == b.end and texts[i].endswith("\n"):
            texts[i] = texts[i][:-1] + ",\n"
    nl = newline_of(text)
    out, pos = [], 0
    for (_, e), body in zip(ordered, texts):
        if e.start < pos:
            raise EditConflict(f"overlapping edits at offset {e.start}")
        out.append(text[pos:e.start])
        # new lines end the way the file's lines end (CRLF stays CRLF)
        out.append(body if nl == "\n" or "\n" not in body else body.replace("\r\n", "\n").replace("\n", nl))
        pos = e.end
    out.append(text[pos:])
    return "".join(out)


def _merge_removals(text: str, edits: list[TextEdit]) -> list[TextEdit]:
    """Removals of one kind that overlap (`--a 1 --b` opening a line: the first eats the space after
    it, the second the space before it; `"--a", "--b"]` closing a flow list: the first takes the
    comma after it, the second the comma before it) become one removal of everything from the first
    to the last, placed as that kind places it — a line and its continuation go when nothing else is
    left on it, a list's last items take the comma before them — so that a report's diff shows both,
    as the file --fix writes. A merge whose bytes would reach past the removals and the blanks and
    separators around them is not made (the edits conflict, and the second waits for the next pass)."""
    runs = sorted((e for e in edits if e.merge and not e.text and e.end > e.start), key=lambda e: (e.start, e.end))
    groups: list[list[TextEdit]] = []
    for e in runs:
        if groups and groups[-1][0].merge == e.merge and e.start <= max(g.end for g in groups[-1]):  # touching too
            groups[-1].append(e)
        else:
            groups.append([e])
    out, merged = list(edits), False
    for group in (g for g in groups if len(g) > 1):
        place, seps = group[0].merge  # type: ignore[misc]
        lo, hi = group[0].start, max(g.end for g in group)
        first, last = _inner(text, lo, hi, seps)
        whole = place(text, first, last) if first < last else None
        if whole is None or whole.start > lo or whole.end < hi \
                or (text[whole.start:lo] + text[hi:whole.end]).strip(" \t\r\n\\" + seps):
            continue  # left as they are: apply finds them overlapping
        out = [e for e in out if not any(e is g for g in group)] + [TextEdit(whole.start, whole.end, "", merge=group[0].merge)]
        merged = merged or (whole.start, whole.end) != (lo, hi)
    return _merge_removals(text, out) if merged else out  # a span that grew may now touch the next removal


def _inner(text: str, lo: int, hi: int, seps: str = "") -> tuple[int, int]:
    """The span without the blanks, separators and line continuations at its ends."""
    blank = " \t\r\n" + seps
    while lo < hi and (text[lo] in blank or (text[lo] == "\\" and text[lo + 1:lo + 2] in ("\n", "\r"))):
        lo += 1
    while hi > lo and (text[hi - 1] in blank or (text[hi - 1] == "\\" and text[hi:hi + 1] in ("\n", "\r"))):
        hi -= 1
    return lo, hi


def newline_of(text: str) -> str:
    """The line ending a file mostly uses."""
    crlf = text.count("\r\n")
    return "\r\n" if crlf and crlf * 2 >= text.count("\n") else "\n"


def line_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    ls = text.rfind("\n", 0, start) + 1
    le = text.find("\n", end)
    return ls, (len(text) if le < 0 else le)


def remove_words(text: str, start: int, end: int) -> TextEdit:
    """Delete a span of shell words; the whole line when nothing else (but `\\`) is on it."""
    ls, le = line_bounds(text, start, end)
    before, after = text[ls:start], text[end:le]
    if not before.strip() and after.strip() == "" and ls > 0:
        # the command's last line: the line before must lose its continuation backslash too
        prev = text[:ls - 1]
        m = re.search(r"[ \t]*\\$", prev)
        if m:
            return TextEdit(m.start(), le, "", merge=_WORDS)
    if not before.strip() and after.strip() in ("", "\\"):
        return TextEdit(ls, min(le + 1, len(text)), "", merge=_WORDS)
    s = start
    while s > ls and text[s - 1] in " \t":
        s -= 1
    if s == ls:  # words open the line: eat the spaces after them instead
        e = end
        while e < le and text[e] in " \t":
            e += 1
        return TextEdit(start, e, "", merge=_WORDS)
    return TextEdit(s, end, "", merge=_WORDS)


_WORDS = (remove_words, "")  # how a removal of shell words is placed again (_merge_removals)


_JOIN_AFTER = re.compile(r"[ \t]*(?:&&|\|\||;)[ \t]*")
_JOIN_BEFORE = re.compile(r"[ \t]*(?:&&|\|\||;)[ \t]*$")


def remove_command(text: str, start: int, end: int) -> TextEdit:
    """Delete a whole shell command (`export X=1`) with the `&&`, `||` or `;` that joins it to
    the next command or the previous one, so that the list around it still parses; alone on its
    line, the line goes (remove_words)."""
    m = _JOIN_AFTER.match(text, end)
    if m and m.end() > end and text[end:m.end()].strip():
        return TextEdit(start, m.end(), "")
    ls = text.rfind("\n", 0, start) + 1
    m = _JOIN_BEFORE.search(text, ls, start)
    if m:
        return TextEdit(m.start(), end, "")
    return remove_words(text, start, end)


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
    ls, _ = line_bounds(text, offset, offset)
    indent = indent_of(text[ls:])
    at = above_comments(text, ls)
    return TextEdit(at, at, f"{indent}{new_line}\n")


def append_shell_arg(text: str, words: list, first: int, last: int, new: str) -> TextEdit:
    """Add an argument to a command spanning words[first..last], before a trailing "$@"."""
    tail = words[last]
    if tail.is_all_args and last > first:
        ls, _ = line_bounds(text, tail.start, tail.start)
        if not text[ls:tail.start].strip():  # "$@" on its own continuation line
            indent = text[ls:tail.start]
            return TextEdit(ls, ls, f"{indent}{new} \\\n")
        return TextEdit(tail.start, tail.start, f"{new} ")
    ls, _ = line_bounds(text, tail.start, tail.start)
    multi = words[first].line != tail.line
    if multi:  # one argument per continuation line: add a line of the same indent
        indent = indent_of(text[ls:])
        return TextEdit(tail.end, tail.end, f" \\\n{indent}{new}")
    return TextEdit(tail.end, tail.end, f" {new}")
