"""Character offsets from the (line, byte column) positions Python's ast reports."""
from __future__ import annotations


class LineIndex:
    def __init__(self, text: str):
        self.text = text
        self.starts = [0]
        for i, ch in enumerate(text):
            if ch == "\n":
                self.starts.append(i + 1)

    def offset(self, line: int, col_bytes: int) -> int:
        """1-based line, UTF-8 byte column (ast's col_offset) → character offset."""
        start = self.starts[line - 1]
        end = self.starts[line] if line < len(self.starts) else len(self.text)
        prefix = self.text[start:end].encode("utf-8")[:col_bytes].decode("utf-8", errors="ignore")
        return start + len(prefix)

    def span(self, node) -> tuple[int, int]:
        return self.offset(node.lineno, node.col_offset), self.offset(node.end_lineno, node.end_col_offset)

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
