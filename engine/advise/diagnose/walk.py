"""One walk of a symptom's tree over a site's facts. A condition that needs a missing fact is
never guessed: the walk stops there and asks (`pick: first`), or lists the branch as an open
question (`pick: all`). The leaves reached give advice, point at checks (whose audit verdict
and fix apply) and carry fix ops, which become changes in the site's own syntax through
engine/fix/changes.py plan()."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vllm_kb.engine.advise.diagnose.tree import Node, Symptom, Tree
from vllm_kb.engine.kb.messages import lookup
from vllm_kb.engine.kb import cel
from vllm_kb.engine.kb.knowledge import FixOp, Knowledge, Text

# --- the walk -----------------------------------------------------------------------------------

@dataclass
class Visit:
    node: Node
    depth: int
    evidence: list[tuple[str, Any]]
    ruled_out: list[tuple[Node, list[tuple[str, Any]]]] = field(default_factory=list)
    alternatives: list[Node] = field(default_factory=list)


@dataclass
class Question:
    node: Node  # where the walk stopped (pick: first), or the undecided child (pick: all)
    text: Text
    candidates: list[Node]
    missing: tuple[str, ...]


@dataclass
class Walk:
    symptom: Symptom
    path: list[Visit]
    leaves: list[Visit]
    questions: list[Question]


def _evidence(paths, facts: dict, show: tuple[str, ...] = ()) -> list[tuple[str, Any]]:
    out, seen = [], set()
    for p in sorted(".".join(x) for x in paths) + list(show):
        if p in seen or "." not in p:
            continue
        seen.add(p)
        v = lookup(facts, p)
        if v is not None:
            out.append((p, v))
    return out


def _test(node: Node, act: cel.Activation) -> tuple[bool | None, tuple[str, ...], frozenset]:
    if node.when is None:
        return True, (), frozenset()
    pred = cel.compile(node.when)
    out = pred.evaluate(act)
    missing = out.missing or tuple(sorted(".".join(p) for p in pred.paths if lookup(act.facts, ".".join(p)) is None))
    return out.value, (_needed(node.when, missing) if out.value is None else ()), pred.paths


def _needed(source: str, missing: tuple[str, ...]) -> tuple[str, ...]:
    """The missing facts that decide: a path the condition only tests with has() is absent by
    design and asks nothing of the user."""
    out = tuple(m for m in missing if len(re.findall(re.escape(m) + r"\b", source))
                > len(re.findall(r"has\(\s*" + re.escape(m) + r"\s*\)", source)))
    return out or missing


def walk(symptom: Symptom, facts: dict) -> Walk:
    act = cel.Activation(facts)
    w = Walk(symptom, [], [], [])

    def visit(node: Node, depth: int, paths=frozenset()) -> None:
        v = Visit(node, depth, _evidence(paths, facts, node.show))
        w.path.append(v)
        if node.leaf:
            w.leaves.append(v)
            return
        tests = [(c, *_test(c, act)) for c in node.children]
        if node.pick == "all":
            for c, ok, missing, cpaths in tests:
                if ok is None:
                    w.questions.append(Question(c, c.answer or Text("?", "?"), [c], missing))
                elif ok:
                    visit(c, depth + 1, cpaths)
                else:
                    v.ruled_out.append((c, _evidence(cpaths, facts)))
            return
        for i, (c, ok, missing, cpaths) in enumerate(tests):
            if ok is None:
                # the answers still open: the undecided ones up to the first that holds
                open_ = []
                for t in tests[i:]:
                    if t[1] is not False:
                        open_.append(t[0])
                    if t[1] is True:
                        break
                w.questions.append(Question(node, node.question or Text("?", "?"), open_, missing))
                return
            if ok:
                v.alternatives = [t[0] for t in tests[i + 1:] if t[1] is True and t[0].when is not None]
                visit(c, depth + 1, cpaths)
                return
            v.ruled_out.append((c, _evidence(cpaths, facts)))

    visit(symptom.root, 0)
    return w


def run_case(symptom: Symptom, case: dict) -> str | None:
    """None when the case holds, else what went wrong (for `kb validate`)."""
    facts = dict(case.get("facts") or {})
    if case.get("observed"):
        facts["observed"] = case["observed"]
    w = walk(symptom, facts)
    got_leaves = [v.node.id for v in w.leaves]
    got_asks = [q.node.id for q in w.questions]
    if "leaves" in case and got_leaves != case["leaves"]:
        return f"reaches {got_leaves}, expected {case['leaves']}"
    if "asks" in case and got_asks != case["asks"]:
        return f"asks {got_asks}, expected {case['asks']}"
    if "asks" not in case and got_asks:
        return f"asks {got_asks}, expected no question"
    return None

# --- changes ------------------------------------------------------------------------------------

@dataclass
class LeafPlan:
    visit: Visit
    ops: list[tuple[FixOp, Any]]
    unresolved: list[tuple[FixOp, tuple[str, ...]]]
    results: list  # evaluate.Result of the checks it points at


def leaf_ops(node: Node, act: cel.Activation, version: str) -> tuple[list, list]:
    ops, unresolved = [], []
    for f in node.fix:
        if f.vllm and not f.vllm.contains(version):
            continue
        if f.when:
            out = cel.compile(f.when).evaluate(act)
            if out.value is None:
                unresolved.append((f.op, _needed(f.when, out.missing)))
                continue
            if not out.value:
                continue
        value = f.op.value
        if f.op.value_from:
            value, err = cel.compile(f.op.value_from).compute(act)
            if err is not None:
                unresolved.append((f.op, err.missing))
                continue
        ops.append((f.op, value))
    return ops, unresolved


def plan_leaves(w: Walk, facts: dict, results: dict, version: str) -> list[LeafPlan]:
    act = cel.Activation(facts)
    out = []
    for v in w.leaves:
        ops, unresolved = leaf_ops(v.node, act, version)
        out.append(LeafPlan(v, ops, unresolved, [results[c] for c in v.node.checks if c in results]))
    return out


def fixables(plans: list[LeafPlan]):
    from vllm_kb.engine.fix.changes import PRIORITY_ORDER, Fixable

    items = []
    for p in plans:
        prio = p.visit.node.priority
        if p.ops:
            items.append(Fixable(p.visit.node.id, prio, False, p.ops))
        for r in p.results:
            if r.needs_change and r.fix:
                best = min(prio, r.priority or prio, key=lambda x: PRIORITY_ORDER.get(x, 3))
                items.append(Fixable(r.check.id, best, r.safe, r.fix))
    return items

# --- one diagnosis per site ----------------------------------------------------------------------

@dataclass
class Diagnosis:
    symptom: Symptom
    site: Any  # audit.SiteReport, or None for a diagnosis without a launch site
    facts: dict
    walk: Walk | None
    plans: list[LeafPlan]
    changes: list
    diffs: list[dict]
    skipped: str | None = None  # i18n key: why this site was not walked
    skipped_values: dict = field(default_factory=dict)


@dataclass
class Result:
    symptom: Symptom | None  # None: the error text names a launch failure and no symptom
    observed: dict
    matched: tuple[str, str] | None  # (matcher id, text excerpt)
    diagnoses: list[Diagnosis]
    hardware: Any
    root: Path | None
    tree: Tree
    kb: Knowledge
    launch: list = field(default_factory=list)  # advise/diagnose/launch.LaunchHit, best first


def diagnose_facts(sym: Symptom, sr, facts: dict, observed: dict, results: dict, version: str, cat, kb: Knowledge,
                    root: Path | None) -> Diagnosis:
    from vllm_kb.engine.check.evaluate import evaluate_all
    from vllm_kb.engine.fix.changes import plan
    from vllm_kb.engine.fix.text_edits import diffs
    from vllm_kb.engine.scan.site import Site

    facts = dict(facts)
    if observed:
        facts["observed"] = dict(observed)
    w = walk(sym, facts)
    if sr is None:
        results = {r.check.id: r for r in evaluate_all(kb, facts, {})}
    plans = plan_leaves(w, facts, results, version)
    site = sr.site if sr is not None else Site(file="", line=0, syntax="cli", kind="vllm serve",
                                               mode=(facts.get("site") or {}).get("mode", "standalone_serve"), mode_evidence="")
    changes = plan(site, fixables(plans), cat, version)
    after: list[dict] = []
    if sr is not None and root is not None:
        after = diffs(site, [c for c in changes if not c.blocked], lambda rel: _read(root, rel))
    return Diagnosis(sym, sr, facts, w, plans, changes, after)


def _read(root: Path, rel: str) -> str | None:
    try:
        return (root / rel).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
