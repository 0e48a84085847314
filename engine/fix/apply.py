"""`--fix` and `--diff`: the report's changes written into the files, where the settings are.

Each pass audits the project as it would read after the earlier passes (the new texts are
given to the scanner instead of the disk's), turns every applicable change into text edits
(engine/fix/changes.py → engine/fix/edits.py: only the setting's own words move, comments and layout
stay) and applies them, until a pass finds nothing left to change. Safe changes only, unless
unsafe ones are allowed; a change the site's syntax cannot take (blocked by a framework, a
nested key shown only as a snippet) is left for a person. Files are written only inside the
audited root, through no symlink that leads out of it, and atomically."""
from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from vllm_kb.engine.fix import edits as edits_mod
from vllm_kb.engine.fix.changes import Change
from vllm_kb.engine.fix.text_edits import file_edits
from vllm_kb.engine.scan.context import ScanContext

MAX_PASSES = 10


class Audited(Protocol):
    """What --fix needs of an audit: engine/report/results.py's AuditReport, a stage above."""

    @property
    def ctx(self) -> ScanContext: ...

    @property
    def sites(self) -> Sequence[Any]: ...


@dataclass
class Applied:
    file: str
    line: int | None
    op: str
    target: str
    before: str | None
    after: str | None
    checks: list[str]
    safe: bool


@dataclass
class FixResult:
    originals: dict[str, str] = field(default_factory=dict)  # rel → text before any fix
    texts: dict[str, str] = field(default_factory=dict)  # rel → text after the fixes
    applied: list[Applied] = field(default_factory=list)
    passes: int = 0
    converged: bool = True
    unsafe_left: int = 0  # writable changes held back because they are unsafe
    manual: int = 0  # changes no edit can write

    @property
    def changed_files(self) -> list[str]:
        return sorted(f for f, t in self.texts.items() if t != self.originals.get(f))

    def diff(self) -> str:
        return "".join(edits_mod.unified_diff(f, self.originals[f], self.texts[f]) for f in self.changed_files)


def wanted(ch: Change, unsafe: bool) -> bool:
    return not ch.blocked and (ch.safe or unsafe)


def pending(rep: Audited, unsafe: bool) -> list[tuple[Any, Change, dict]]:
    """(site report, change, {file: [edits]}) for every change this audit would write."""
    out = []
    read = rep.ctx.read
    for sr in rep.sites:
        for ch in sr.changes:
            if not wanted(ch, unsafe):
                continue
            got = file_edits(sr.site, [ch], read)
            if got:
                out.append((sr, ch, got))
    return out


def run(audit: Callable[[dict[str, str]], Audited], unsafe: bool = False, max_passes: int = MAX_PASSES) -> FixResult:
    """`audit(overlay)` audits the project with `overlay` (rel → text) over the disk and applies
    the project's configuration, suppressions and baseline."""
    res = FixResult()
    overlay: dict[str, str] = {}
    rep: Audited | None = None
    for n in range(max_passes + 1):
        rep = audit(dict(overlay))
        todo = pending(rep, unsafe)
        if not todo:
            break
        if n == max_passes:
            res.converged = False
            break
        res.passes += 1
        progressed = False
        by_file: dict[str, list] = {}
        for sr, ch, got in todo:
            for f, es in got.items():
                by_file.setdefault(f, []).append((ch, es))
        for f, items in by_file.items():
            text = rep.ctx.read(f)
            if text is None:
                continue
            res.originals.setdefault(f, text)
            taken: list = []
            done: list[Change] = []
            for ch, es in items:
                try:
                    edits_mod.apply(text, taken + es)
                except edits_mod.EditConflict:
                    continue  # the next pass reads the file anew
                taken += es
                done.append(ch)
            new = edits_mod.apply(text, taken)
            if new != text:
                progressed = True
                overlay[f] = new
                res.texts[f] = new
                res.applied += [Applied(f, ch.line, ch.op, ch.target, ch.before, ch.after, list(ch.checks), ch.safe) for ch in done]
        if not progressed:
            break
    if rep is not None:
        for sr in rep.sites:
            for ch in sr.changes:
                if ch.blocked:
                    continue
                writable = bool(file_edits(sr.site, [ch], rep.ctx.read))
                if not writable:
                    res.manual += 1
                elif not ch.safe and not unsafe:
                    res.unsafe_left += 1
    return res


class WriteError(OSError):
    pass


def write(root: str | Path, res: FixResult) -> list[str]:
    """Write the changed files under `root`; returns what was written. A file that resolves
    outside the root, is not a regular file, or changed on disk since it was read is refused."""
    root_real = os.path.realpath(root)
    written = []
    for rel in res.changed_files:
        full = os.path.join(root_real, rel)
        real = os.path.realpath(full)
        if not real.startswith(root_real.rstrip(os.sep) + os.sep):
            raise WriteError(f"{rel}: resolves outside {root}")
        st = os.stat(real)
        if not os.path.isfile(real):
            raise WriteError(f"{rel}: not a regular file")
        with open(real, "rb") as fh:
            raw = fh.read()
        bom = raw.startswith(b"\xef\xbb\xbf")
        if raw.decode("utf-8-sig", errors="replace") != res.originals[rel]:
            raise WriteError(f"{rel}: changed on disk while vllm-kb was fixing it")
        data = (b"\xef\xbb\xbf" if bom else b"") + res.texts[rel].encode("utf-8")
        fd, tmp = tempfile.mkstemp(prefix=".vllm-kb-", dir=os.path.dirname(real))
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.chmod(tmp, st.st_mode & 0o7777)
            os.replace(tmp, real)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
        written.append(rel)
    return written
