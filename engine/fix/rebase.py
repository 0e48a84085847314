"""A pin change moves what every other change of the same audit was computed from: vLLM's
release (a requirement line, a pyproject entry, an image tag, a build's `pip install`), or a
package the checks read beside it (the framework that drives vLLM, torch, transformers). A
change planned for vLLM 0.11.0 — `--calculate-kv-scales`, a parser's old name, a length sized by
that release's memory estimate — is not the change vLLM 0.34.0 needs, and may be one it refuses.

So a pass of `--fix` that writes a pin writes only pins; every other change waits for the next
pass, which audits the project at the pinned release and asks for what that release needs: the
fix is "the bump, then the changes of the new release". What the old release asked for and the
new one does not (or asks for another value of) is reported, not written (`Rebased`)."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


def moves_release(ch: Any) -> bool:
    return ch.op == "pin"


def split(todo: list[tuple]) -> tuple[list[tuple], list[tuple]]:
    """(what this pass writes, what waits for the audit at the pinned release): the pins alone
    when there is one among `todo` ((site report, change, edits) items), else everything."""
    if not any(moves_release(item[1]) for item in todo):
        return todo, []
    return [t for t in todo if moves_release(t[1])], [t for t in todo if not moves_release(t[1])]


@dataclass
class Rebased:
    """A change planned at the release a pin moved the site from, not written at the new one."""

    change: Any  # engine/fix/changes.Change: file, line, op, target, before, after, checks
    site: tuple  # engine/fix/guard.site_keys
    was: str  # the release the change was planned for
    now: str = ""  # the release the fixed project runs
    instead: Any = None  # the change the new release's audit wrote to that setting instead (apply.Applied), if any
    mark: int = 0  # how many changes were applied when it was held: what came after is the new release's

    @property
    def ident(self) -> tuple:
        c = self.change
        return (c.file, c.op, c.target, c.after)


def hold(held: dict[tuple, Rebased], later: list[tuple], keys: dict[int, tuple], applied: int) -> None:
    """Note the changes a pin pass keeps back (the first time each is kept back wins: its release is
    the one the project had)."""
    for sr, ch, _ in later:
        r = Rebased(ch, keys[id(sr)], sr.version.version or "", mark=applied)
        held.setdefault(r.ident, r)


def settle(held: dict[tuple, Rebased], applied: Sequence[Any], rep: Any, keys: Sequence[tuple]) -> list[Rebased]:
    """The held changes that the audits after the pin did not write as they were, at sites whose
    release the pin did move; `rep` is the last audit, `keys` its site keys."""
    now = {k: (sr.version.version or "") for k, sr in zip(keys, rep.sites)}
    out = []
    for r in held.values():
        later = applied[r.mark:]
        if any((a.file, a.op, a.target, a.after) == r.ident for a in later):
            continue  # the new release asks for the same change: it was written
        r.now = now.get(r.site, "")
        if not r.now or r.now == r.was:
            continue  # the pin did not move this site: kept back for another reason, not this one
        c = r.change
        r.instead = next((a for a in reversed(later) if (a.file, a.target) == (c.file, c.target)), None)
        out.append(r)
    return sorted(out, key=lambda r: (r.change.file, r.change.line or 0, r.change.target))
