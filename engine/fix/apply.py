"""`--fix` and `--diff`: the report's changes written into the files, where the settings are.

Each pass audits the project as it would read after the earlier passes (the new texts are
given to the scanner instead of the disk's), turns every applicable change into text edits
(engine/fix/changes.py → engine/fix/edits.py: only the setting's own words move, comments and layout
stay) and applies them, until a pass finds nothing left to change; a pass that moves a pin writes only
pins, and the other changes are planned again at the release it moves to (engine/fix/rebase.py).
Safe changes only, unless unsafe ones are allowed; a change the site's syntax cannot take
(blocked by a framework, a nested key shown only as a snippet) is left for a person. Files are
written only inside the audited root, through no symlink that leads out of it, all or none
(engine/fix/atomic.py)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from vllm_kb.engine.fix import atomic
from vllm_kb.engine.fix import guard, rebase
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
    priority: str = "P2"  # the most urgent of the checks that ask for it


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
    refused: list[guard.Refusal] = field(default_factory=list)  # what the guard kept out (engine/fix/guard.py)
    last_pass: set[str] = field(default_factory=set)  # the files the last pass changed
    # changes planned at the release a pin moved away from, not written (engine/fix/rebase.py)
    rebased: list[rebase.Rebased] = field(default_factory=list)
    # when the first passes wrote only pins: the audit after them and the texts then (engine/fix/guard.refuse_worse)
    pinned: tuple[Any, dict[str, str]] | None = field(default=None, repr=False)

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
        if why is not None and ch.blocked != "alternative":  # another way out is never written, and holds nothing back
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
    or a whole Selection. Two checks that would rewrite each other's value lose the rewrite, and
    the fixed project is audited again before anything is written: a file whose fixes would bring
    a P0 it did not have is left untouched (engine/fix/guard.py); each time, the run starts over
    without what was refused, so --fix never trades one failure for another and never loops."""
    sel = _selection(unsafe)
    first = audit({})
    frozen: dict[str, guard.Refusal] = {}
    banned: dict[tuple, guard.Refusal] = {}
    while True:
        res, rep, loop = _passes(audit, first, sel, max_passes, frozen, banned)
        if loop is not None:
            banned[loop[0]] = loop[1]
            continue
        worse = guard.refuse_worse(first, rep, res)
        if not res.converged:  # a cycle or too many passes: the files the last pass still rewrote stay as they were
            worse = {**{f: guard.Refusal(f, "loop", sorted({c for a in res.applied if a.file == f for c in a.checks}), [])
                        for f in res.last_pass if f in res.changed_files}, **worse}
            res.converged = not worse.keys() - frozen.keys()
        worse = {f: r for f, r in worse.items() if f not in frozen}
        if not worse:
            break
        frozen.update(worse)
    res.refused = sorted(frozen.values(), key=lambda r: r.file) + [r for r in banned.values() if r.file not in frozen]
    return res


def _passes(audit: Callable[[dict[str, str]], Audited], first: Audited, sel: Selection, max_passes: int,
            frozen: dict[str, guard.Refusal], banned: dict[tuple, guard.Refusal]
            ) -> tuple[FixResult, Audited, tuple[tuple, guard.Refusal] | None]:
    """The fixes pass after pass, each on the project as the earlier passes left it, until a pass
    finds nothing left to change; files in `frozen` and the changes in `banned` are not written.
    Stops at the first loop it sees: (its ban key, the refusal)."""
    res = FixResult()
    overlay: dict[str, str] = {}
    ledger = guard.Ledger()
    rebased: dict[tuple, rebase.Rebased] = {}
    rep = first
    pinned = False  # the passes so far wrote pins and nothing else
    for n in range(max_passes + 1):
        if n:
            rep = audit(dict(overlay))
            if pinned:  # the project at the pinned release, before any other change: the guard's second baseline
                res.pinned = (rep, dict(overlay))
        todo = pending(rep, sel)
        if not todo:
            break
        if n == max_passes:
            res.converged = False
            break
        res.passes += 1
        by_file: dict[str, list] = {}
        keys = {id(sr): k for k, sr in zip(guard.site_keys(rep.sites), rep.sites)}
        live = []
        for sr, ch, got in todo:
            held = [r for f in got for r in (frozen.get(f), guard.banned(banned, (f, keys[id(sr)]), ch.checks)) if r]
            for r in held:
                r.held.update(rule_of(c) for c in ch.checks)
            if not held:
                live.append((sr, ch, got))
        live, later = rebase.split(live)  # a pin first: the rest is planned again at the release it moves to
        rebase.hold(rebased, later, keys, len(res.applied))
        for sr, ch, got in live:
            for f, es in got.items():
                where = (f, keys[id(sr)], ch.target)
                loop = ledger.loop(where, ch)
                if loop is not None:
                    return res, rep, loop
                by_file.setdefault(f, []).append((ch, es, where))
        progressed = False
        res.last_pass = set()
        for f, items in by_file.items():
            new = _apply_file(rep, f, items, res, ledger)
            if new is not None:
                progressed = True
                res.last_pass.add(f)
                overlay[f] = new
                res.texts[f] = new
        if not progressed:
            break
        pinned = all(a.op == "pin" for a in res.applied)
        if ledger.seen(overlay):
            res.converged = False
            break
    res.rebased = rebase.settle(rebased, res.applied, rep, guard.site_keys(rep.sites))
    for _, ch, got, why in _sorted_changes(rep, sel):
        if why is None or frozen.keys() & got.keys():
            continue
        if why == "manual":
            res.manual += 1
        else:
            res.skipped.setdefault(why, set()).update(rule_of(c) for c in ch.checks)
            res.unsafe_left += why == "unsafe"
    return res, rep, None


def _apply_file(rep: Audited, f: str, items: list, res: FixResult, ledger: guard.Ledger) -> str | None:
    """One pass's changes in one file: the new text, or None when nothing changed. The changes
    that share a check go together (half of "TP 2 → 1 with DP 8" asks for more GPUs than there
    are): a group that collides with an earlier one of the pass waits for the next pass."""
    text = rep.ctx.read(f)
    if text is None:
        return None
    res.originals.setdefault(f, text)
    taken, done = _take(f, text, items, False)
    if f.endswith(".py") and not edits_mod.parses_after(f, text, taken):
        taken, done = _take(f, text, items, True)  # the groups one by one, each kept only while the file parses
    new = edits_mod.apply(text, taken)
    if new == text:
        return None
    for ch, where in done:
        ledger.record(where, ch)
    edits = {id(ch): es for ch, es, _ in items}
    res.applied += [Applied(f, ch.line, ch.op, ch.target, ch.before, _written(ch, edits.get(id(ch))), list(ch.checks), ch.safe,
                            ch.value, ch.priority or "P2") for ch, _ in done]
    return new


def _written(ch: Any, es: list | None) -> str | None:
    """What the summary says a change wrote: the bytes themselves where it replaced text within a line
    (a YAML item `--k=v`, not the JSON tokens the change is planned in: eval115), else the change's text."""
    if ch.after and es and all(e.end > e.start and "\n" not in e.text for e in es):
        return " ".join(e.text for e in es)
    return ch.after


def _take(f: str, text: str, items: list, check: bool) -> tuple[list, list]:
    """The edits of the groups that go together in this pass, and their changes; a group that collides
    with an earlier one (or, with `check`, leaves a Python file unparsable) waits for the next pass."""
    taken: list = []
    done: list[tuple[Change, tuple]] = []
    for group in _coupled(items):
        es: list = []
        for e in (e for _, got, _ in group for e in got):
            if e not in taken and e not in es:  # one pin asked for by two sites: written once
                es.append(e)
        try:
            edits_mod.checked(f, text, taken + es) if check else edits_mod.apply(text, taken + es)
        except edits_mod.EditConflict:
            continue  # the whole group waits: the next pass reads the file anew
        taken += es
        done += [(ch, where) for ch, _, where in group]
    return taken, done


def _coupled(items: list) -> list[list]:
    """The changes in groups that share a check, in order of their first change."""
    groups: list[tuple[set[str], list[int]]] = []
    for n, item in enumerate(items):
        checks = set(item[0].checks)
        hit = [i for i, g in enumerate(groups) if g[0] & checks]
        if not hit:
            groups.append((checks, [n]))
            continue
        first = groups[hit[0]]
        for i in reversed(hit[1:]):
            first[0].update(groups[i][0])
            first[1].extend(groups[i][1])
            del groups[i]
        first[0].update(checks)
        first[1].append(n)
    return [[items[n] for n in sorted(g[1])] for g in groups]


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
