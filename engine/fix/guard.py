"""What `--fix` refuses to write: a file whose fixes would bring a P0 that the project did not
have (the fixed text is audited in memory with the same release, GPU and facts before anything
is written), and a later pass that would undo what an earlier pass of the same run wrote for
another check (the two checks disagree: writing both would loop). A refused file is left
untouched, all of it: half of a file's fixes can be worse than none."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Refusal:
    """A file (or one change in it) that --fix leaves as it is, and why."""

    file: str
    why: str  # new_p0 | loop
    checks: list[str]  # the checks whose fixes were refused
    conflicts: list[str]  # the P0s they would bring (new_p0), the checks they would undo (loop)
    target: str = ""  # the setting (loop)
    line: int | None = None
    site: str = ""  # file:line of the site that would get the new P0
    # writable changes held back because of this refusal, credited to their checks
    held: set[str] = field(default_factory=set)


def site_keys(sites: Sequence[Any]) -> list[tuple]:
    """A key per site that survives edits above it (lines move): file, kind, framework and the
    site's rank among the sites of the same file, kind and framework."""
    seen: dict[tuple, int] = {}
    out = []
    for sr in sites:
        s = sr.site
        k = (s.file, s.kind, s.framework)
        seen[k] = seen.get(k, 0) + 1
        out.append((*k, seen[k]))
    return out


RANK = {"P0": 0, "P1": 1, "P2": 2}


def flagged(rep: Any) -> dict[tuple, dict[str, int]]:
    """Per site key, what the audit recommends there (checks, findings) and at which priority
    rank; () holds the findings about no site."""
    out: dict[tuple, dict[str, int]] = {}
    for key, sr in zip(site_keys(rep.sites), rep.sites):
        got = {r.check.id: RANK.get(r.priority or "P2", 2) for r in sr.results if r.status == "recommended"}
        got.update({f.id: RANK.get(f.priority or "P2", 2) for f in sr.remarks if f.priority})
        if got:
            out[key] = got
    loose = {f.id: RANK.get(f.priority, 2) for f in getattr(rep, "findings", ()) if f.priority}
    if loose:
        out[()] = loose
    return out


def site_files(site: Any) -> set[str]:
    """Every file a site's settings are read from."""
    files = {site.file, site.config_file}
    for group in (site.settings, site.env, site.unknown):
        files |= {s.file for s in group.values()}
    files |= {s.file for s in (site.model, site.passthrough) if s is not None}
    return {f for f in files if f}


def new_p0s(before: Any, after: Any, rank: int = 0) -> list[tuple[tuple, set[str], Any]]:
    """(site key, the recommendations of priority rank `rank` or more urgent that it gets and did
    not have at that rank, the site report or None) after the fixes."""
    was = flagged(before)
    by_key = dict(zip(site_keys(after.sites), after.sites))
    out = []
    for key, got in sorted(flagged(after).items()):
        old = was.get(key, {})
        new = {i for i, r in got.items() if r <= rank and old.get(i, 3) > r}
        if new:
            out.append((key, new, by_key.get(key)))
    return out


def refuse_new_p0(before: Any, after: Any, changed: Iterable[str], pins: set[str],
                  applied: Sequence[Any], pinned: tuple[Any, set[str], set[str]] | None = None) -> dict[str, Refusal]:
    """The changed files to leave untouched because the fixed project is worse: it has a P0 it did
    not have, or a new P1 where the file's fixes were themselves no more than P1 (raising
    gpu_memory_utilization for one engine must not overfill the GPU it shares). A new problem is
    blamed on the changed files its site reads, and every changed pin file (a pin moves every
    site's release); when its site reads none of them (a shared GPU, a finding about no site), on
    every changed file. `pinned`: (the audit after the pins alone, the files they changed, the files
    changed after them) when the run moved pins first (engine/fix/rebase.py): a new problem the
    pinned project already has is the pins' doing; one it does not have is the doing of the changes
    planned at the new release (a problem that release has anyway is not theirs: a second run, on
    the pinned project, would write them)."""
    changed = set(changed)
    best = {f: min((RANK.get(a.priority, 2) for a in applied if a.file == f), default=2) for f in changed}
    out: dict[str, Refusal] = {}
    for rank in (0, 1):
        at_pin = {key: ids for key, ids, _ in new_p0s(before, pinned[0], rank)} if pinned is not None else {}
        for key, new, sr in new_p0s(before, after, rank):
            for got_new, files in _blame(key, new, sr, changed, pins, at_pin, pinned):
                files = {f for f in files if best[f] >= rank}
                where = f"{sr.site.file}:{sr.site.line}" if sr is not None else ""
                for f in sorted(files):
                    checks = sorted({c for a in applied if a.file == f for c in a.checks} or {"?"})
                    got = out.setdefault(f, Refusal(f, "new_p0", checks, [], site=where))
                    got.conflicts = sorted(set(got.conflicts) | got_new)
    return out


def _blame(key: tuple, new: set[str], sr: Any, changed: set[str], pins: set[str], at_pin: dict,
           pinned: tuple[Any, set[str], set[str]] | None) -> list[tuple[set[str], set[str]]]:
    """(new problems, the changed files they are blamed on): one group, or after pins moved first
    two — what the pinned project already has (on the pin files), what came after (on the files
    changed after the pins that the site reads, or all of them)."""
    reads = site_files(sr.site) & changed if sr is not None else set()
    if pinned is None:
        return [(new, (reads | (pins & changed) if sr is not None else set()) or changed)]
    _, early, late = pinned
    by_pins = new & at_pin.get(key, set())
    groups = ((by_pins, early & changed), (new - by_pins, (reads & late) or (late & changed)))
    return [(ids, files or changed) for ids, files in groups if ids]


def refuse_worse(first: Any, last: Any, res: Any) -> dict[str, Refusal]:
    """The files to leave untouched (refuse_new_p0), from a run's FixResult (engine/fix/apply.py)."""
    pins = {a.file for a in res.applied if a.op == "pin"}
    if res.pinned is None:
        return refuse_new_p0(first, last, res.changed_files, pins, res.applied)
    mid, texts = res.pinned
    early = {f for f, t in texts.items() if t != res.originals.get(f)}
    late = {f for f in res.changed_files if res.texts[f] != texts.get(f, res.originals.get(f))}
    return refuse_new_p0(first, last, res.changed_files, pins, res.applied, (mid, early, late))


class Ledger:
    """What each pass of one run wrote, per setting (file, site, setting) and by which checks. A
    later pass may write a setting again for other checks (the value a P0 needed, raised by a P1
    that asks for more); when the checks it overwrote then ask for their value back, the two
    disagree and would rewrite each other forever: the rewrite is refused (`loop`) and the run
    starts over without it."""

    def __init__(self) -> None:
        self.wrote: dict[tuple, set[str]] = {}  # where → the checks that wrote it last
        self.overwrote: dict[tuple, tuple[Any, set[str]]] = {}  # where → (the rewrite, the checks it overwrote)
        self.states: set[int] = set()

    def loop(self, where: tuple, ch: Any) -> tuple[tuple, Refusal] | None:
        """When `ch` asks back for what a rewrite took from its checks: the ban key of the one of
        the two that gives way (the less urgent; at one priority the unsafe one, else the
        rewrite) and its refusal."""
        got = self.overwrote.get(where)
        if got is None or ch.op == "rename":
            return None
        rewrite, taken = got
        if not taken & set(ch.checks) or set(rewrite.checks) & set(ch.checks):
            return None
        def weight(c: Any) -> tuple:
            return (RANK.get(c.priority or "P2", 2), not c.safe)

        loser, winner = (ch, rewrite) if weight(ch) > weight(rewrite) else (rewrite, ch)
        refusal = Refusal(where[0], "loop", list(loser.checks), list(winner.checks), target=loser.target, line=loser.line)
        return ban_key(where, loser.checks), refusal

    def record(self, where: tuple, ch: Any) -> None:
        prev = self.wrote.get(where)
        if prev is not None and not prev & set(ch.checks) and ch.op != "rename":
            self.overwrote[where] = (ch, prev)
        self.wrote[where] = set(ch.checks)

    def seen(self, overlay: dict[str, str]) -> bool:
        """Whether the project already read like this earlier in the run (a cycle)."""
        h = hash(frozenset(overlay.items()))
        if h in self.states:
            return True
        self.states.add(h)
        return False


def ban_key(where: tuple, checks: Sequence[str]) -> tuple:
    return (*where, tuple(sorted(checks)))


def banned(bans: dict[tuple, Refusal], site: tuple, checks: Sequence[str]) -> Refusal | None:
    """The ban that holds a change of these checks at this (file, site): a check that gave way
    in a loop writes none of its changes there (half of "TP 4 with PP 2" is not its fix)."""
    return next((r for k, r in bans.items() if k[:2] == site and set(k[-1]) & set(checks)), None)
