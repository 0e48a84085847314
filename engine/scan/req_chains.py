"""A requirements file that names another with `-r base.txt` / `-c constraints.txt`: pip reads the named
file's lines as the including file's own (pip's requirements-file format; the path is relative to
the including file). So the named file's pins stand for the including file's folder as well, not only
for the folder the named file sits in — `requirements.txt` holding only `-r requirements/gpu.txt`
pins the root's launches with what gpu.txt pins; a file named like no pin file (`deps/serve.lst`)
is read for its pins only through such a line. Chains are followed three files deep; a file that
names itself again is read once."""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import PurePosixPath

from vllm_kb.engine.scan import req_file

_INCLUDE = re.compile(r"(?:-r|--requirement|-c|--constraint)(?:\s*=\s*|\s+)(\S+)")
_DEPTH = 3


def _folder(rel: str) -> str:
    p = PurePosixPath(rel).parent.as_posix()
    return "" if p == "." else p


def pins(ctx, files: list[str], all_pins: list, read_requirements) -> list:
    """Copies of the pins of each file a requirements file includes, standing for the including
    file's folder where that is another folder. `read_requirements(rel, text)`: a requirements
    file's pins (engine/scan/pins.py)."""
    from vllm_kb.engine.scan.pins import is_pin_file

    by_file: dict[str, list] = {}
    for p in all_pins:
        if not p.above:
            by_file.setdefault(p.file, []).append(p)
    out: list = []
    for rel in files:
        if not (is_pin_file(rel) and rel.endswith((".txt", ".in"))):
            continue
        text = ctx.read(rel)
        if not text or "-r" not in text and "-c" not in text and "--requirement" not in text and "--constraint" not in text:
            continue
        folder = _folder(rel)
        for inc in included(ctx, rel, text):
            got = by_file.get(inc)
            if got is None:
                inc_text = ctx.read(inc) or ""
                got = by_file[inc] = read_requirements(inc, inc_text) if inc_text else []
            out += [replace(p, included_in=folder) for p in got if p.folder != folder]
    return out


def included(ctx, rel: str, text: str, seen: set[str] | None = None, depth: int = 0) -> list[str]:
    """The project files `rel` includes, directly and through the files it includes."""
    seen = {rel} if seen is None else seen
    out: list[str] = []
    for _, line in req_file.lines(text):  # the lines as pip reads them (engine/scan/req_file.py)
        if (m := _INCLUDE.match(line)) is None:
            continue
        got = ctx.resolve_ref(rel, m.group(1).strip("'\""))
        if got is None or got in seen:
            continue
        seen.add(got)
        out.append(got)
        inner = ctx.read(got) if depth + 1 < _DEPTH else None
        if inner:
            out += included(ctx, got, inner, seen, depth + 1)
    return out
