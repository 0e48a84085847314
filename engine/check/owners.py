"""One cause, one owner. Two rules sometimes report one cause at one site (quantization=bitsandbytes
on vLLM 0.28+: L10 says vLLM does not know the method, D4 that the option was removed; a tensor
parallel size above the GPUs Xinference gives the model: L34 and the xinference-n-gpu finding).
The check that yields says so in its knowledge record, `owned_by:` — the owner's id (a check or
a finding code), `as:` what becomes of the yielding verdict, and optionally `where:`, a predicate
on the site's facts that hands the cause to the owner at those sites whether or not the owner
fires there (its silence is its verdict: it reads what the other cannot see). Without `where:`
the owner takes the cause where it is recommended (a check) or raised (a finding).

- `as: note` (the default): the verdict stays a recommendation, one priority below the owner's
  (P0 → P1, P1 → P2; P2 when the owner is silent), its fix kept; its words name the owner.
- `as: drop`: the verdict becomes not applicable, its fix gone, with the entry's reason.

settle_owners runs once per site after every other priority rule (settle_priorities, unpinned,
cap_opaque), so the owner's priority is final; yielders are settled after their own owners.
`kb validate` (lint) rejects an unknown id, an owner that is the check itself and a cycle."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from vllm_kb.engine.check.lowered import lower, note
from vllm_kb.engine.kb import cel
from vllm_kb.engine.kb.knowledge import Check, Knowledge, Text

_BELOW = {"P0": "P1", "P1": "P2", "P2": "P2"}


@dataclass(frozen=True)
class Owner:
    id: str  # a check's id (resolved from any of its keys) or a finding code
    check: bool  # the owner is a check (else a finding the engine or a framework raises)
    as_: str  # note | drop
    where: str | None = None
    reason: Text | None = None


def entries(c: Check) -> list[dict]:
    """The check's `owned_by:` entries, a bare id read as `{id: …}`."""
    return [e if isinstance(e, dict) else {"id": e} for e in (c.raw.get("owned_by") or [])]


@lru_cache(maxsize=8)
def table(kb: Knowledge) -> tuple[tuple[Check, tuple[Owner, ...]], ...]:
    """The checks that yield, each after the checks it yields to (an order kb validate guarantees:
    no cycle); a check's owners in the order written."""
    keys = {k: c.id for c in kb.checks for k in c.keys}
    rows: dict[str, tuple[Check, tuple[Owner, ...]]] = {}
    for c in kb.checks:
        got = tuple(Owner(keys.get(e["id"], e["id"]), e["id"] in keys, e.get("as", "note"), e.get("where"),
                          Text.of(e["reason"]) if e.get("reason") else None) for e in entries(c))
        if got:
            rows[c.id] = (c, got)
    ordered: list[tuple[Check, tuple[Owner, ...]]] = []
    seen: set[str] = set()

    def visit(cid: str, path: frozenset) -> None:
        if cid in seen or cid in path or cid not in rows:
            return
        for o in rows[cid][1]:
            visit(o.id, path | {cid})
        seen.add(cid)
        ordered.append(rows[cid])

    for cid in rows:
        visit(cid, frozenset())
    return tuple(ordered)


def settle_owners(results: list, remarks: list, facts: dict, kb: Knowledge) -> None:
    rows = table(kb)
    if not rows:
        return
    by_id = {r.check.id: r for r in results}
    act = None
    for c, owners in rows:
        r = by_id.get(c.id)
        if r is None:
            continue
        for o in owners:
            prio = _owner_priority(o, by_id, remarks)
            if o.where is not None:
                act = act or cel.Activation(facts)
                if not cel.compile(o.where).evaluate(act).value:
                    continue  # outside the owner's sites: nothing changes
            elif prio is None:
                continue
            _yield(r, o, prio, kb)
            break


def _owner_priority(o: Owner, by_id: dict, remarks: list) -> str | None:
    """The owner's priority where it takes the cause at this site ("P2" for a finding without one), else None."""
    if o.check:
        got = by_id.get(o.id)
        return (got.priority or "P2") if got is not None and got.needs_change else None
    hits = [f.priority or "P2" for f in remarks if f.code == o.id]
    return min(hits) if hits else None


def _yield(r, o: Owner, prio: str | None, kb: Knowledge) -> None:
    if o.as_ == "drop":
        if r.status == "not_applicable":
            return  # already out of the question, for its own reason
        r.status, r.priority, r.fix, r.safe, r.missing = "not_applicable", None, [], False, ()
        r.reason = o.reason or note(kb, "reason.owned", owner=o.id)
        r.values = {}
        return
    if not r.needs_change:
        return  # a note is about a recommendation; a verdict that asks for nothing stays as it is
    lower(r, _BELOW[prio] if prio is not None else "P2", note(kb, "priority.owned", owner=o.id), unsafe=False)


def lint(v, kb: Knowledge, finding_ids: set[str]) -> None:
    """kb validate: each `owned_by` names a check (any of its keys) or a finding the engine or a
    framework raises, not the check itself, `where:` compiles, and no chain of owners comes back."""
    keys = {k: c.id for c in kb.checks for k in c.keys}
    edges: dict[str, list[str]] = {}
    for c in kb.checks:
        for i, e in enumerate(entries(c)):
            where = f"owned_by[{i}]"
            oid = keys.get(e["id"])
            if oid is None and e["id"] not in finding_ids:
                v.add(c.file, c.id, where, f"unknown rule id {e['id']!r}: not a check, alias or finding code")
                continue
            if oid == c.id:
                v.add(c.file, c.id, where, "a check cannot be owned by itself")
                continue
            if e.get("where"):
                try:
                    cel.compile(e["where"])
                except Exception as err:  # noqa: BLE001 — any compile error is the knowledge's to fix
                    v.add(c.file, c.id, f"{where}.where", f"does not compile: {err}")
            if oid is not None:
                edges.setdefault(c.id, []).append(oid)
    files = {c.id: c.file for c in kb.checks}
    for start in sorted(edges):
        path = _cycle(start, edges)
        if path and path[0] == min(path[:-1]):  # each cycle once, from its least id
            v.add(files[start], start, "owned_by", "owners form a cycle: " + " -> ".join(path))


def _cycle(start: str, edges: dict[str, list[str]]) -> list[str] | None:
    stack = [(start, [start])]
    while stack:
        node, path = stack.pop()
        for nxt in edges.get(node, ()):
            if nxt == start:
                return path + [start]
            if nxt not in path:
                stack.append((nxt, path + [nxt]))
    return None
