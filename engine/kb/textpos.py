"""Character offsets from the (line, byte column) positions Python's ast reports, and the
source text of a node — both in time proportional to the line, not to the file: a file with
hundreds of settings is indexed once (`index`), never once per setting."""
from __future__ import annotations

import re
from functools import lru_cache

_NEWLINE = re.compile("\n")
_LONE_CR = re.compile("\r(?!\n)")


class LineIndex:
    def __init__(self, text: str):
        self.text = text
        self.starts = [0]
        self.starts += [m.end() for m in _NEWLINE.finditer(text)]
        # ast counts a lone \r as a line break and this index does not: such a file's segments
        # come from ast itself
        self._lone_cr = "\r" in text and _LONE_CR.search(text) is not None

    def offset(self, line: int, col_bytes: int) -> int:
        """1-based line, UTF-8 byte column (ast's col_offset) → character offset."""
        start = self.starts[line - 1]
        end = self.starts[line] if line < len(self.starts) else len(self.text)
        row = self.text[start:end]
        if row.isascii():
            return start + min(col_bytes, len(row))
        prefix = row.encode("utf-8")[:col_bytes].decode("utf-8", errors="ignore")
        return start + len(prefix)

    def span(self, node) -> tuple[int, int]:
        return self.offset(node.lineno, node.col_offset), self.offset(node.end_lineno, node.end_col_offset)

    def segment(self, node) -> str | None:
        """ast.get_source_segment(text, node) without splitting the whole text on every call."""
        if self._lone_cr:
            import ast

            return ast.get_source_segment(self.text, node)
        try:
            if node.end_lineno is None or node.end_col_offset is None:
                return None
            line, end_line = node.lineno - 1, node.end_lineno - 1
            col, end_col = node.col_offset, node.end_col_offset
        except AttributeError:
            return None
        if not (0 <= line <= end_line < len(self.starts)):
            return None
        return self.text[self.offset(line + 1, col):self.offset(end_line + 1, end_col)]

    def line_start(self, line: int) -> int:
        return self.starts[line - 1]

    def line_of(self, offset: int) -> int:
        lo, hi = 0, len(self.starts)
        while lo < hi:
            mid = (lo + hi) // 2
            if self.starts[mid] <= offset:
                lo = mid + 1
            else:
                hi = mid
        return lo


@lru_cache(maxsize=16)
def index(text: str) -> LineIndex:
    """One index per file text, shared by the scanner and the fix planner (a str hashes once,
    and a hit on the same object compares by identity)."""
    return LineIndex(text)
