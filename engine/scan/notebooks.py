"""Jupyter notebooks (.ipynb, nbformat 4) as sites. The JSON is read with the json module's own
decoder, element by element, so each line of a code cell's `source` is known with the line of the
notebook file it is written on; the cells are then read as the Python and shell files they are —
`LLM(...)` and the other calls by the Python reader, `!vllm serve …` lines and `%%bash`/`%%sh`
cells by the shell model — each code line placed on its own line of the notebook (every other line
blank), so a site's line is the notebook's. IPython's line magics (`%pip …`) and other cell magics
are not Python: they are read as blank. A cell whose lines cannot keep the notebook's line numbers
(a source written as one string holding several lines) or that is not valid Python is left out, and
reported as skipped with its line. A notebook's text is JSON: a change is reported in the cell's
own words and written only where its bytes are the same inside the JSON string (a `%pip install
vllm==X` pin; engine/fix/text_edits.py)."""
from __future__ import annotations

import bisect
import re

from vllm_kb.engine.scan import python_calls, scripts
from vllm_kb.engine.scan.notebook_json import code_cells
from vllm_kb.engine.scan.context import ScanContext, parse_python
from vllm_kb.engine.scan.site import Site

_SHELL_CELL = re.compile(r"^%%(?:bash|sh|script\s+(?:ba)?sh)\b")


def is_notebook(rel: str) -> bool:
    return rel.endswith(".ipynb")


def scan(ctx: ScanContext, rel: str, text: str) -> list[Site]:
    cells = code_cells(text)
    if cells is None:
        ctx.skip(rel, "parse-error", detail="not a notebook: invalid JSON or no `cells` list")
        return []
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    n = len(starts)
    py: list[str] = [""] * (n + 1)
    sh: list[str] = [""] * (n + 1)
    shell_cells: list[list[tuple[int, str]]] = []
    for cell in cells:
        placed = _place(cell, starts)
        if placed is None:
            ctx.skip(rel, "parse-error", _line(starts, cell[0][0]) if cell else None,
                     "a notebook cell whose source is one string of several lines: its lines are not the notebook's")
            continue
        head = next((t.strip() for _, t in placed if t.strip()), "")
        if _SHELL_CELL.match(head):
            shell_cells.append([(ln, t) for ln, t in placed if not t.strip().startswith("%%")])
            continue
        if head.startswith("%%"):
            continue  # another cell magic (%%time runs Python, but its body is not worth a guess)
        shell: dict[int, str] = {}
        body = _python(placed, shell)
        if not _valid(body, rel):
            ctx.skip(rel, "python-syntax", body[0][0] if body else None, "a notebook cell that is not valid Python")
            continue
        for ln, t in body:
            py[ln] = t
        for ln, t in shell.items():
            sh[ln] = t
    for cell in shell_cells:
        for ln, t in cell:
            sh[ln] = t
    out: list[Site] = []
    pytext = "\n".join(py[1:])
    if pytext.strip():
        for site in python_calls.scan(ctx, rel, pytext):
            site.launch["notebook"] = True  # a kernel's `__main__` has no file: spawn does not re-run the cells
            out.append(site)
    shtext = "\n".join(sh[1:])
    if shtext.strip():
        out += scripts.scan(ctx, rel, shtext)
    return out


def _line(starts: list[int], offset: int) -> int:
    return bisect.bisect_right(starts, offset)


def _place(cell: list[tuple[int, str]], starts: list[int]) -> list[tuple[int, str]] | None:
    """(notebook line, code line) of each line of the cell; None when two land on one line."""
    out: list[tuple[int, str]] = []
    used: set[int] = set()
    for at, s in cell:
        parts = s.split("\n")
        if parts and parts[-1] == "":
            parts.pop()
        if len(parts) > 1:
            return None
        ln = _line(starts, at)
        if ln in used:
            return None
        used.add(ln)
        out.append((ln, parts[0] if parts else ""))
    return out


def _python(placed: list[tuple[int, str]], sh: dict[int, str]) -> list[tuple[int, str]]:
    """The cell's lines as Python: a `!cmd` line (and the lines its trailing backslashes continue
    it on) is a shell line, read by the shell model, and — like a `%magic` line — a `pass` at its
    indentation in the Python text, so the block around it stays valid. A line magic's backslashes
    continue it too (`%pip install --upgrade`, a backslash, then a package a line): those lines are
    blank, not Python (MAOJIASONG/TinyZero-TRL's GRPO notebook was skipped whole as a syntax error)."""
    out: list[tuple[int, str]] = []
    cont: str | None = None  # the kind of line ("!" or "%") the previous one's backslash continues
    for ln, line in placed:
        body = line.lstrip()
        kind = cont or ({"!": "!", "%": "%"}.get(body[:1]))
        if cont == "!":
            sh[ln] = line
            out.append((ln, ""))
        elif cont == "%":
            out.append((ln, ""))
        elif kind:
            if kind == "!":
                sh[ln] = body[1:]
            out.append((ln, line[:len(line) - len(body)] + "pass"))
        else:
            out.append((ln, line))
        cont = kind if line.rstrip().endswith("\\") else None
    return out


def _valid(body: list[tuple[int, str]], rel: str) -> bool:
    try:
        parse_python("\n".join(t for _, t in body), rel)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True
