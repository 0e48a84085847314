"""A requirements file read as pip reads it (pip/_internal/req/req_file.py `preprocess`), the one
reader of its pins for the project's pins (engine/scan/pins.py), the files an include names
(engine/scan/req_chains.py) and the per-backend alternatives (engine/scan/pin_alternatives.py):

- a line ending in `\\` goes on on the next one, and the whole takes the first line's number
  (`vllm==0.8.5 \\` then `    --hash=sha256:…`, pip-compile --generate-hashes);
- a comment starts at a `#` at the line's start or after white space (pip's `(^|\\s+)#.*$`), so a
  URL's `#egg=vllm` or `#subdirectory=` stays part of it;
- a line whose first word is an option (`-r`, `-c`, `--extra-index-url`, `--hash`) names no requirement,
  except `-e`/`--editable`, whose value pip installs (`-e git+https://github.com/volcengine/verl@v0.4.1`);
- options after a requirement (`--hash=…`, `--config-settings`) and an environment marker
  (`; python_version >= "3.9"`) are not part of its version (engine/scan/requirement.py from_requirement).
Includes (`-r other.txt`) are followed by the callers that need them (req_chains.py)."""
from __future__ import annotations

import re

from vllm_kb.engine.scan import framework_git
from vllm_kb.engine.scan.requirement import Pin, from_requirement

_COMMENT = re.compile(r"(^|\s+)#.*$")
_EDITABLE = re.compile(r"^(?:-e|--editable)(?:\s*=\s*|\s+)(?P<req>\S.*)$")


def lines(text: str) -> list[tuple[int, str]]:
    """(first line number, logical line) of each line that is not blank once comments are cut."""
    out: list[tuple[int, str]] = []
    held: list[str] = []
    first = 0
    for n, line in enumerate(text.splitlines(), 1):
        if line.endswith("\\") and not _COMMENT.match(line):
            if not held:
                first = n
            held.append(line.strip("\\"))
            continue
        if held:
            # a comment line ends the held ones (pip keeps it apart with a leading space)
            line, n = "".join(held) + (" " + line if _COMMENT.match(line) else line), first
            held = []
        out.append((n, line))
    if held:
        out.append((first, "".join(held)))
    return [(n, s) for n, raw in out if (s := _COMMENT.sub("", raw).strip())]


def pins(rel: str, text: str) -> list[Pin]:
    """The pins of a requirements file's lines, in line order."""
    out = []
    for n, line in lines(text):
        if line.startswith("-"):
            m = _EDITABLE.match(line)
            if m is None:
                continue
            line = m["req"]
        p = from_requirement(rel, n, line, "requirements") or framework_git.pin(rel, n, line, "requirements", Pin)
        if p is not None:
            out.append(p)
    return out
