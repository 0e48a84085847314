"""`--fix` and `--diff`: the report's changes written into the files, where the settings are.

Each pass audits the project as it would read after the earlier passes (the new texts are
given to the scanner instead of the disk's), turns every applicable change into text edits
(engine/fix/changes.py → engine/fix/edits.py: only the setting's own words move, comments and layout
stay) and applies them, until a pass finds nothing left to change. Safe changes only, unless
unsafe ones are allowed; a change the site's syntax cannot take (blocked by a framework, a
nested key shown only as a snippet) is left for a person. Files are written only inside the
audited root, through no symlink that leads out of it, all or none (engine/fix/atomic.py)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from vllm_kb.engine.fix import atomic
from vllm_kb.engine.fix import edits as edits_mod
from vllm_kb.engine.fix.atomic import WriteError
from vllm_kb.engine.kb.encoding import display_path
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
    value: object = None  # what the setting becomes (None for a removal)


@dataclass
class FixResult:
    originals: dict[str, str] = field(default_factory=dict)  # rel → text before any fix
    texts: dict[str, str] = field(default_factory=dict)  # rel → text after the fixes
    applied: list[Applied] = field(default_factory=list)
    passes: int = 0
    converged: bool = True
    unsafe_left: int = 0  # writable changes held back because they are unsafe
    manual: int = 0  # changes no edit can write
    # writable changes the selection held back: reason (unsafe | unfixable | not_fixable) → rule ids
    skipped: dict[str, set[str]] = field(default_factory=dict)

    @property
    def changed_files(self) -> list[str]:
        return sorted(f for f, t in self.texts.items() if t != self.originals.get(f))

    def diff(self) -> str:
        return "".join(edits_mod.unified_diff(f, self.originals[f], self.texts[f]) for f in self.changed_files)

    def withheld(self) -> dict[str, list[int]]:
        """Per file, the lines whose change the diff does not show (they hold a secret)."""
        out = {}
        for f in self.changed_files:
            lines = edits_mod.shown_diff(f, self.originals[f], self.texts[f])[1]
            if lines:
                out[f] = lines
        return out


@dataclass(frozen=True)
class Selection:
    """Which fixes a run applies, as ruff chooses: `fixable` (None: every rule) and `unfixable`
    rule ids (the config's `fixable`/`unfixable`, `--fixable`/`--unfixable`); `--select` and
    `--ignore` already took what is not reported out of the changes. A change several rules ask
    for is applied when one of them is fixable and none is unfixable."""

    unsafe: bool = False
    fixable: frozenset[str] | None = None
    unfixable: frozenset[str] = frozenset()

    def reason(self, ch: Change) -> str | None:
        """Why a writable change is held back, or None when it is applied."""
        rules = {rule_of(c) for c in ch.checks}
        if rules & self.unfixable:
            return "unfixable"
        if self.fixable is not None and not rules & self.fixable:
            return "not_fixable"
        if not ch.safe and not self.unsafe:
            return "unsafe"
        return None


def rule_of(check: str) -> str:
    """A change's credit (`B4`, `not-in-version:swap_space`) as a rule id."""
    return check.split(":", 1)[0]


def _selection(sel: Selection | bool) -> Selection:
    return sel if isinstance(sel, Selection) else Selection(unsafe=bool(sel))


def wanted(ch: Change, sel: Selection | bool) -> bool:
    return not ch.blocked and _selection(sel).reason(ch) is None


def pending(rep: Audited, sel: Selection | bool) -> list[tuple[Any, Change, dict]]:
    """(site report, change, {file: [edits]}) for every change this audit would write."""
    return [(sr, ch, got) for sr, ch, got, why in _sorted_changes(rep, _selection(sel)) if why is None]


def fixable(site, changes: list[Change], read) -> list[bool]:
    """Per change, whether `--fix --unsafe-fixes` can write it here (the report's `fixable`)."""
    sel = Selection(unsafe=True)
    rows = _site_rows(site, changes, read, sel)
    return [why is None for _, _, why in rows]


def _site_rows(site, changes: list[Change], read, sel: Selection) -> list[tuple[Change, dict, str | None]]:
    rows = []
    held: set[str] = set()
    for ch in changes:
        got = {} if ch.blocked else file_edits(site, [ch], read)
        why = ("blocked" if ch.blocked else "manual") if not got else sel.reason(ch)
        if why is not None:
            held.update(ch.checks)
        rows.append((ch, got, why))
    return [(ch, got, "coupled" if why is None and held & set(ch.checks) else why) for ch, got, why in rows]


def _sorted_changes(rep: Audited, sel: Selection) -> list[tuple[Any, Change, dict, str | None]]:
    """Every unblocked change with its edits and why it is held back (None: it is written).
    A check's changes go together: when one of them cannot be written here or is held back, the
    others of that check are held too (`coupled`) — half of "tensor_parallel_size 2 → 1 with
    data_parallel_size 2" would ask for more GPUs than there are."""
    return [(sr, ch, got, why) for sr in rep.sites for ch, got, why in _site_rows(sr.site, sr.changes, rep.ctx.read, sel)
            if why != "blocked"]


def run(audit: Callable[[dict[str, str]], Audited], unsafe: bool | Selection = False, max_passes: int = MAX_PASSES) -> FixResult:
    """`audit(overlay)` audits the project with `overlay` (rel → text) over the disk and applies
    the project's configuration, suppressions and baseline. `unsafe`: a bool (--unsafe-fixes)
    or a whole Selection."""
    unsafe = _selection(unsafe)
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
                res.applied += [Applied(f, ch.line, ch.op, ch.target, ch.before, ch.after, list(ch.checks), ch.safe, ch.value) for ch in done]
        if not progressed:
            break
    if rep is not None:
        for _, ch, _, why in _sorted_changes(rep, unsafe):
            if why == "manual":
                res.manual += 1
            elif why is not None:
                res.skipped.setdefault(why, set()).update(rule_of(c) for c in ch.checks)
                res.unsafe_left += why == "unsafe"
    return res


def verify(res: FixResult) -> dict[str, str]:
    """Files whose fixed text no longer parses although the original did: {file: error}."""
    return {f: err for f in res.changed_files if (err := _parse_error(f, res.texts[f])) and not _parse_error(f, res.originals[f])}


def _parse_error(rel: str, text: str) -> str | None:
    import json

    from vllm_kb.engine.kb import yamlio
    from vllm_kb.engine.scan import shell
    from vllm_kb.engine.scan.context import parse_python

    name = rel.rsplit("/", 1)[-1]
    try:
        if name.endswith((".py", ".pyi")):
            parse_python(text, rel)
        elif name.endswith((".yaml", ".yml")):
            yamlio.load_all(text)
        elif name.endswith(".json"):
            json.loads(text)
        elif name.endswith((".sh", ".bash")):
            shell.parse(text)
    except (SyntaxError, ValueError, shell.ShellSyntaxError, RecursionError) as e:
        return f"{type(e).__name__}: {e}"[:200]
    return None


def write(root: str | Path, res: FixResult) -> list[str]:
    """Write every changed file under `root`, all or none (engine/fix/atomic.py); returns what was
    written. Refuses, writing nothing, when a fix broke a file's syntax, a file resolves outside the
    root, is not a regular file, changed on disk since it was read, or is one file behind two paths
    that would get different fixes."""
    broken = verify(res)
    if broken:
        f, err = next(iter(sorted(broken.items())))
        raise WriteError(f"{display_path(f)}: the fixed text would not parse ({err}); nothing was changed")
    targets = atomic.plan(str(root), res.originals, {f: res.texts[f] for f in res.changed_files})
    atomic.write(targets)
    return sorted(r for t in targets for r in t.rels)
