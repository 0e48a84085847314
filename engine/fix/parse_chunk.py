"""Whether an edited Python file parses, read from the lines of the one statement the edit changed.

`parses(old, new)` is True only where `new` is sure to parse (False: ask the whole file). `old` parsed
(its statements' lines are known only from the scan's tree of it: engine/scan/python_stmt_lines.py);
`new` differs from it only inside a statement S that has its lines to itself, after S's indentation.
Then `new` is `old`'s lines before S, the edited lines, `old`'s lines after S, and it parses when the
edited lines parse as a block at S's place, because the tokenizer and the grammar read them there as
they read them alone:

- before S nothing changed; at S's first line the tokenizer is at a line's start, outside any
  bracket or string, and S's indentation is the innermost level it holds (S begins a logical line);
- the edited lines are tested as the body of an `if 1:` (as they are, where S is at the margin); the
  first starts with code at S's column, and every other starts with S's indentation or is blank, so no
  line leaves S's level and the first is read at it, as S was: the
  tokenizer compares them only with levels at or inside S's, the same inside the file and alone. A
  body that parses ends outside any bracket, string or continued line;
- after S the first line that holds code is no deeper than S (it followed a whole statement in
  `old`), so it closes every level the edited lines opened, and the rest is read as before;
- the grammar reads a block as a run of statements wherever it stands (module, class, function,
  if/for/while/with/try/match bodies): one statement replaced by one or more is still a block.

A form feed, a carriage return, a tab in S's indentation, or an indentation past 80 columns (the
tokenizer's limit of 100 levels counts the levels outside S too) sends the whole file to the parser."""
from __future__ import annotations

from vllm_kb.engine.kb.textpos import index as line_index
from vllm_kb.engine.scan import python_stmt_lines

_MAX_INDENT = 80


def _common_prefix(a: str, b: str) -> int:
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:  # a binary search of slices compared in C: each compare is a memcmp
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _common_suffix(a: str, b: str, most: int) -> int:
    lo, hi = 0, most
    la, lb = len(a), len(b)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[la - mid:la - lo] == b[lb - mid:lb - lo]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def parses(old: str, new: str, check) -> bool:
    """True only when `new` parses (`check(text)`: True only for a text that parses, as edits._parses)."""
    if len(old) < 2048:
        return False  # a small file is parsed whole as fast
    pairs = python_stmt_lines.spans(old)
    if not pairs:
        return False
    p = _common_prefix(old, new)
    s = _common_suffix(old, new, min(len(old), len(new)) - p)
    lo, hi = p, len(old) - s  # old[lo:hi] became new[lo:len(new) - s]
    first = old.count("\n", 0, lo) + 1
    last = first + old.count("\n", lo, hi)
    best = None
    for i in range(0, len(pairs), 2):  # the innermost statement holding the change's lines
        a, b = pairs[i], pairs[i + 1]
        if a <= first and last <= b and (best is None or a > best[0] or (a == best[0] and b < best[1])):
            best = (a, b)
    if best is None:
        return False
    a, b = best
    starts = line_index(old).starts
    start = starts[a - 1]
    end = starts[b] - 1 if b < len(starts) else len(old)  # the `\n` that ends S's last line
    code = len(old[start:end]) - len(old[start:end].lstrip(" \t")) + start  # S's first character
    if not (code <= lo and hi <= end):
        return False  # the change touches S's indentation or runs past its last line
    indent = old[start:code]
    chunk = new[start:len(new) - (len(old) - end)]
    if "\t" in indent or "\f" in chunk or "\r" in chunk or "\0" in chunk or chunk[len(indent):len(indent) + 1] in " \t#\\\n":
        return False  # (last) the first line's code must start where S's did: at S's level, no deeper
    for line in chunk.split("\n"):
        body = line.lstrip(" \t")
        if not body:
            continue
        if not line.startswith(indent) or len(line[:len(line) - len(body)].expandtabs(8)) > _MAX_INDENT:
            return False
    return check(f"if 1:\n{chunk}\n" if indent else chunk)

