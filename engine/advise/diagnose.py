"""`vllm-kb diagnose`: walk the decision tree of knowledge/decision_tree.yaml for a symptom over a
site's audit facts. Each node's condition is CEL over those facts and `observed.*` (what only the
user can tell). A condition that needs a missing fact is never guessed: the walk stops there
and asks (`pick: first`), or lists the branch as an open question (`pick: all`). The leaves
reached give advice, point at checks (whose audit verdict and fix apply) and carry fix ops,
which become changes in the site's own syntax through fixes.plan()."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from vllm_kb.engine.kb import cel
from vllm_kb.engine.kb.errors import UsageError
from vllm_kb.engine.check.evaluate import _lookup, placeholders, render
from vllm_kb.engine.kb.knowledge import FixOp, Knowledge, Text, load
from vllm_kb.engine.kb.versions import SpecifierSet

FILE = "knowledge/decision_tree.yaml"
SYMPTOMS = ("oom", "throughput", "ttft", "itl", "rlhf")
_YES, _NO = ("yes", "y", "true", "1", "on"), ("no", "n", "false", "0", "off")


# --- the tree ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class TreeFix:
    op: FixOp
    vllm: SpecifierSet | None = None
    when: str | None = None


@dataclass
class Node:
    id: str
    answer: Text | None
    when: str | None
    question: Text | None
    pick: str
    children: list[Node]
    advice: Text | None
    fix: list[TreeFix]
    checks: tuple[str, ...]
    priority: str
    show: tuple[str, ...]
    raw: dict = field(repr=False, default_factory=dict)

    @property
    def leaf(self) -> bool:
        return not self.children

    def leaves(self) -> list[Node]:
        return [self] if self.leaf else [x for c in self.children for x in c.leaves()]


@dataclass
class Observation:
    id: str
    question: Text
    values: tuple[str, ...]  # empty: a yes/no answer (or a number)
    labels: dict[str, Text]
    number: bool = False


@dataclass
class Symptom:
    id: str
    title: Text
    modes: tuple[str, ...] | None
    root: Node
    cases: list[dict]


@dataclass
class Tree:
    symptoms: dict[str, Symptom]
    observations: dict[str, Observation]
    matchers: list[dict]
    nodes: dict[str, Node]

    def symptom(self, sid: str) -> Symptom:
        if sid not in self.symptoms:
            raise UsageError(f"no such symptom: {sid!r}; symptoms are {', '.join(self.symptoms)}")
        return self.symptoms[sid]


def _node(raw: dict) -> Node:
    fixes = [TreeFix(FixOp.of(f), SpecifierSet(f["vllm"]) if f.get("vllm") else None, f.get("when"))
             for f in raw.get("fix", [])]
    return Node(
        id=raw["id"], answer=Text.of(raw["answer"]) if raw.get("answer") else None, when=raw.get("when"),
        question=Text.of(raw["question"]) if raw.get("question") else None, pick=raw.get("pick", "first"),
        children=[_node(c) for c in raw.get("children", [])], advice=Text.of(raw["advice"]) if raw.get("advice") else None,
        fix=fixes, checks=tuple(raw.get("checks", ())), priority=raw.get("priority", "P2"),
        show=tuple(raw.get("show", ())), raw=raw,
    )


def parse(data: dict) -> Tree:
    symptoms, nodes = {}, {}
    for s in data["symptoms"]:
        root = _node(s["root"])
        symptoms[s["id"]] = Symptom(s["id"], Text.of(s["title"]), tuple(s["modes"]) if s.get("modes") else None, root,
                                    list(s.get("cases", [])))
        stack = [root]
        while stack:
            n = stack.pop()
            nodes[n.id] = n
            stack += n.children
    obs = {o["id"]: Observation(o["id"], Text.of(o["question"]), tuple(v["value"] for v in o.get("values", ())),
                                {v["value"]: Text.of(v["label"]) for v in o.get("values", ())}, bool(o.get("number")))
           for o in data.get("observations", [])}
    return Tree(symptoms, obs, list(data.get("matchers", [])), nodes)


@lru_cache(maxsize=4)
def _tree_for(kb_id: int, kb: Knowledge) -> Tree:
    return parse(kb.doc("decision_tree.yaml").data)


def tree(kb: Knowledge | None = None) -> Tree:
    kb = kb or load()
    return _tree_for(id(kb), kb)


# --- answers and error texts -------------------------------------------------------------------

def match_text(t: Tree, text: str) -> tuple[str, dict[str, Any], str] | None:
    """(symptom, observations it answers, matcher id) for the first matcher whose pattern occurs
    in an error message or log excerpt (case-insensitive, whole words)."""
    for m in t.matchers:
        for p in m["patterns"]:
            rx = (r"\b" if p[0].isalnum() else "") + re.escape(p) + (r"\b" if p[-1].isalnum() else "")
            if re.search(rx, text, re.IGNORECASE):
                observed = dict(m.get("observed") or {})
                for key, pattern in (m.get("extract") or {}).items():
                    got = re.search(pattern, text)
                    if got:
                        observed[key] = float(got.group(1))
                return m["symptom"], observed, m["id"]
    return None


def parse_answers(t: Tree, answers: dict[str, Any] | list[str] | None) -> dict[str, Any]:
    """`["oom_phase=runtime", "preemption=yes"]` or a mapping → observed facts, checked against
    the declared observations."""
    if not answers:
        return {}
    pairs = answers.items() if isinstance(answers, dict) else [_split(a) for a in answers]
    out: dict[str, Any] = {}
    for key, value in pairs:
        o = t.observations.get(key)
        if o is None:
            raise UsageError(f"no such observation: {key!r}; known: {', '.join(t.observations)}")
        if o.number:
            try:
                out[key] = float(value)
            except (TypeError, ValueError):
                raise UsageError(f"{key} takes a number, got {value!r}") from None
        elif o.values:
            if str(value) not in o.values:
                raise UsageError(f"{key} takes one of {', '.join(o.values)}, got {value!r}")
            out[key] = str(value)
        elif isinstance(value, bool):
            out[key] = value
        elif str(value).strip().lower() in _YES + _NO:
            out[key] = str(value).strip().lower() in _YES
        else:
            raise UsageError(f"{key} takes yes or no, got {value!r}")
    return out


def _split(text: str) -> tuple[str, str]:
    key, sep, value = str(text).partition("=")
    if not sep or not key.strip():
        raise UsageError(f"--answer takes ID=VALUE, got {text!r}")
    return key.strip(), value.strip()


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
        v = _lookup(facts, p)
        if v is not None:
            out.append((p, v))
    return out


def _test(node: Node, act: cel.Activation) -> tuple[bool | None, tuple[str, ...], frozenset]:
    if node.when is None:
        return True, (), frozenset()
    pred = cel.compile(node.when)
    out = pred.evaluate(act)
    missing = out.missing or tuple(sorted(".".join(p) for p in pred.paths if _lookup(act.facts, ".".join(p)) is None))
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
                w.questions.append(Question(node, node.question, open_, missing))
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
    symptom: Symptom
    observed: dict
    matched: tuple[str, str] | None  # (matcher id, text excerpt)
    diagnoses: list[Diagnosis]
    hardware: Any
    root: Path | None
    tree: Tree
    kb: Knowledge


def diagnose(path: str | Path | None, *, symptom: str | None = None, error: str | None = None, gpu: str | None = "auto",
             site: str | None = None, answers=None, vllm_version: str | None = None, nvml=None,
             kb: Knowledge | None = None) -> Result:
    """Walk the tree of `symptom` (or of the symptom `error` maps to) for each site of the project
    at `path` (or the one `site` names, FILE[:LINE]); without a path, for the hardware alone."""
    from vllm_kb.engine import audit as audit_mod
    from vllm_kb.engine.kb import catalog as catalog_mod

    kb = kb or load()
    t = tree(kb)
    matched = None
    observed: dict[str, Any] = {}
    if error:
        hit = match_text(t, error)
        if hit is None and symptom is None:
            raise UsageError("no symptom recognised in the error text; give one of " + ", ".join(t.symptoms))
        if hit is not None:
            if symptom is None or symptom == hit[0]:
                symptom = hit[0]
                observed.update(hit[1])
            matched = (hit[2], error.strip()[:200])
    if symptom is None:
        raise UsageError("give a symptom (" + ", ".join(t.symptoms) + ") or an error text")
    sym = t.symptom(symptom)
    observed.update(parse_answers(t, answers))
    cat = catalog_mod.load()
    if path is None:
        hardware = audit_mod.resolve_hardware(kb, gpu, nvml)
        version = vllm_version or cat.newest
        facts: dict[str, Any] = {"vllm": {"version": version, "pinned": False}, **hardware.facts()}
        d = _diagnose_facts(sym, None, facts, observed, {}, cat.resolve(version).version, cat, kb, None)
        return Result(sym, observed, matched, [d], hardware, None, t, kb)
    rep = audit_mod.audit(path, gpu=gpu, vllm_version=vllm_version, nvml=nvml, kb=kb)
    reports = _select(rep.sites, site)
    out = []
    ids = {sr.site.id for sr in rep.sites}
    for sr in reports:
        if sym.modes and sr.site.mode not in sym.modes:
            out.append(Diagnosis(sym, sr, sr.facts, None, [], [], [], "diagnose.skipped_mode", {"mode": sr.site.mode}))
            continue
        if sr.site.engine_elsewhere and sr.site.peer in ids:
            out.append(Diagnosis(sym, sr, sr.facts, None, [], [], [], "diagnose.skipped_peer", {"peer": sr.site.peer}))
            continue
        results = {r.check.id: r for r in sr.results}
        out.append(_diagnose_facts(sym, sr, sr.facts, observed, results, sr.lookup_version, cat, kb, rep.root))
    return Result(sym, observed, matched, out, rep.hardware, rep.root, t, kb)


def _select(reports: list, site: str | None) -> list:
    if not site:
        return list(reports)
    file, _, line = site.rpartition(":") if re.search(r":\d+$", site) else (site, "", "")
    hits = [sr for sr in reports if sr.site.file == file.removeprefix("./") and (not line or sr.site.line == int(line))]
    if not hits:
        known = ", ".join(sr.site.id for sr in reports) or "none"
        raise UsageError(f"no launch site at {site!r}; sites: {known}")
    return hits


def _diagnose_facts(sym: Symptom, sr, facts: dict, observed: dict, results: dict, version: str, cat, kb: Knowledge,
                    root: Path | None) -> Diagnosis:
    from vllm_kb.engine.check.evaluate import evaluate_all
    from vllm_kb.engine.fix.changes import diffs, plan
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


# --- the record (JSON and the CLI's text) ---------------------------------------------------------

def _text(t: Text | None, lang: str, facts: dict) -> str:
    if t is None:
        return ""
    s = t(lang)
    return render(s, {p: _lookup(facts, p) for p in placeholders(s)})


def _value(v: Any) -> Any:
    return int(v) if isinstance(v, float) and v.is_integer() else v


def need(t: Tree, kb: Knowledge, fact: str, lang: str, site=None) -> dict[str, Any]:
    """What a missing fact is and how to supply it."""
    group, _, name = fact.partition(".")
    if group == "observed" and name.split(".")[0] in t.observations:
        o = t.observations[name.split(".")[0]]
        values = list(o.values) or (["N"] if o.number else ["yes", "no"])
        return {"fact": fact, "observation": o.id, "values": values, "hint": o.question(lang),
                "labels": {v: o.labels[v](lang) for v in o.values}}
    if site is not None and group in ("engine", "args") and name.split(".")[0] in site.unresolved:
        s = site.settings[name.split(".")[0]]
        return {"fact": fact, "hint": kb.t("diagnose.need.unresolved", lang, key=s.key or s.name, raw=s.raw, where=s.where)}
    key = {"gpu": "gpu", "cpu": "gpu", "memory": "memory", "model": "model"}.get(group, "site")
    return {"fact": fact, "hint": kb.t(f"diagnose.need.{key}", lang)}


def record(res: Result, lang: str = "en") -> dict[str, Any]:
    from vllm_kb.engine.kb.redact import redact
    from vllm_kb.engine.report.model import hardware_text, tool_version

    kb, t = res.kb, res.tree
    out: dict[str, Any] = {
        "schema_version": 1,
        "tool": {"name": "vllm-kb", "version": tool_version(), "knowledge_version": kb.version},
        "lang": lang,
        "symptom": {"id": res.symptom.id, "title": res.symptom.title(lang)},
        "matched": {"matcher": res.matched[0], "text": res.matched[1]} if res.matched else None,
        "observed": {k: _value(v) for k, v in res.observed.items()},
        "hardware": hardware_text(kb, res.hardware, lang),
        "root": str(res.root) if res.root else None,
        "diagnoses": [_diagnosis(d, t, kb, lang) for d in res.diagnoses],
    }
    return redact(out)


def _diagnosis(d: Diagnosis, t: Tree, kb: Knowledge, lang: str) -> dict[str, Any]:
    sr, facts = d.site, d.facts
    site = None
    if sr is not None:
        s = sr.site
        site = {"id": s.id, "file": s.file, "line": s.line, "kind": s.kind, "mode": s.mode, "syntax": s.syntax,
                "framework": s.framework, "model": (facts.get("model") or {}).get("name"),
                "vllm": sr.version.version}
    if d.skipped:
        return {"site": site, "skipped": kb.t(d.skipped, lang, **d.skipped_values), "path": [], "leaves": [],
                "questions": [], "changes": [], "diffs": []}
    w = d.walk
    path = []
    for v in w.path:
        n = v.node
        path.append({
            "node": n.id, "depth": v.depth, "answer": _text(n.answer, lang, facts) or None,
            "question": _text(n.question, lang, facts) if not n.leaf and n.question else None,
            "evidence": [{"fact": f, "value": _value(x)} for f, x in v.evidence],
            "ruled_out": [{"node": c.id, "answer": _text(c.answer, lang, facts),
                           "evidence": [{"fact": f, "value": _value(x)} for f, x in ev]} for c, ev in v.ruled_out],
            "alternatives": [{"node": c.id, "answer": _text(c.answer, lang, facts)} for c in v.alternatives],
        })
    changes = [c.to_json() for c in d.changes]
    leaves = []
    for p in d.plans:
        n = p.visit.node
        mine = {n.id, *n.checks}
        leaves.append({
            "node": n.id, "answer": _text(n.answer, lang, facts), "advice": _text(n.advice, lang, facts),
            "priority": n.priority,
            "checks": [{"id": r.check.id, "name": r.check.name, "title": r.check.title(lang), "status": r.status,
                        "reason": r.reason_text(lang)} for r in p.results],
            "changes": [i for i, c in enumerate(changes) if mine & set(c["checks"])],
            "unresolved": [{"target": op.target, "needs": [need(t, kb, m, lang, sr.site if sr else None) for m in miss]}
                           for op, miss in p.unresolved],
            "sources": list(n.raw.get("sources", [])),
        })
    questions = []
    for q in w.questions:
        questions.append({
            "node": q.node.id, "question": _text(q.text, lang, facts),
            "needs": [need(t, kb, m, lang, sr.site if sr else None) for m in q.missing],
            "candidates": [{"node": c.id, "answer": _text(c.answer, lang, facts),
                            "advice": [_text(x.advice, lang, facts) for x in c.leaves()]} for c in q.candidates],
        })
    return {"site": site, "skipped": None, "path": path, "leaves": leaves, "questions": questions,
            "changes": changes, "diffs": d.diffs}


# --- kb validate ----------------------------------------------------------------------------------

def lint(v, data: dict) -> None:
    """Problems of knowledge/decision_tree.yaml, added to the Validator `v` (engine/kb/validate.py):
    unique ids, CEL that compiles over known facts and declared observations, fix targets that
    exist in the releases they claim, known check ids and symptoms, and every case."""
    from vllm_kb.engine.kb.cel import BUILTIN_FUNCTIONS, REGISTERED_FUNCTIONS, CelSyntaxError

    t = parse(data)
    observations = t.observations
    registry = {c.id for c in _kb_checks()}
    seen: dict[str, str] = {}

    def pred(where: str, node_id: str, source: str) -> None:
        v.n_predicates += 1
        try:
            p = cel.compile(source)
        except CelSyntaxError as e:
            v.add(FILE, node_id, where, f"CEL syntax error: {e}")
            return
        for fn in sorted(p.functions - BUILTIN_FUNCTIONS - REGISTERED_FUNCTIONS):
            v.add(FILE, node_id, where, f"unregistered CEL function {fn!r}")
        for parts in sorted(p.paths):
            if parts[0] == "observed":
                if len(parts) > 1 and parts[1] not in observations:
                    v.add(FILE, node_id, where, f"unknown observation {parts[1]!r} (declared: {', '.join(observations)})")
                elif len(parts) > 1 and "==" in source and observations[parts[1]].values:
                    for lit in re.findall(r'observed\.' + parts[1] + r'\s*(?:==|in)\s*(\[[^\]]*\]|"[^"]*")', source):
                        for val in re.findall(r'"([^"]*)"', lit):
                            if val not in observations[parts[1]].values:
                                v.add(FILE, node_id, where, f"{parts[1]} has no value {val!r}")
                continue
            err = v.fact_name(parts)
            if err:
                v.add(FILE, node_id, where, err)

    def texts(where: str, node_id: str, text: Text | None, versions: list[str]) -> None:
        if text is None:
            return
        for lang in ("en", "zh"):
            v.placeholders(FILE, node_id, f"{where}.{lang}", getattr(text, lang))
            v.text_names(FILE, node_id, f"{where}.{lang}", getattr(text, lang), versions, removal_ok=True)

    def node(n: Node, where: str) -> None:
        if n.id in seen:
            v.add(FILE, n.id, where + ".id", f"duplicate node id (also at {seen[n.id]})")
        seen[n.id] = where
        if n.when:
            pred(where + ".when", n.id, n.when)
        every = v._versions()
        texts(where + ".answer", n.id, n.answer, every)
        texts(where + ".question", n.id, n.question, every)
        texts(where + ".advice", n.id, n.advice, every)
        for f in n.show:
            err = v.fact_name(tuple(f.split(".")))
            if err:
                v.add(FILE, n.id, where + ".show", err)
        for c in n.checks:
            if c not in registry:
                v.add(FILE, n.id, where + ".checks", f"no such check {c!r}")
        for k, f in enumerate(n.fix):
            fw = f"{where}.fix[{k}]"
            versions = v._versions(f.vllm)
            if f.vllm and not versions:
                v.add(FILE, n.id, fw + ".vllm", f"{f.vllm} matches no catalog release")
            v.fix_target(FILE, n.id, fw, f.op, versions)
            if f.op.value_from:
                pred(fw + ".value_from", n.id, f.op.value_from)
            if f.when:
                pred(fw + ".when", n.id, f.when)
        if n.children and n.pick == "first" and n.children[-1].when is not None:
            v.add(FILE, n.id, where + ".children", "the last answer of a `pick: first` node must have no `when` (so every walk ends)")
        for i, c in enumerate(n.children):
            if c.answer is None:
                v.add(FILE, c.id, f"{where}.children[{i}].answer", "an answer node needs its answer text")
            node(c, f"{where}.children[{i}]")

    for i, s in enumerate(data["symptoms"]):
        node(t.symptoms[s["id"]].root, f"symptoms[{i}].root")
    for s in t.symptoms.values():
        for i, case in enumerate(s.cases):
            v.n_cases += 1
            for path, msg in _facts_errors(case.get("facts") or {}):
                v.add(FILE, s.id, f"cases[{i}].facts" + ("." + path if path else ""), msg)
            try:
                parse_answers(t, case.get("observed"))
            except UsageError as e:
                v.add(FILE, s.id, f"cases[{i}].observed", str(e))
                continue
            for leaf in case.get("leaves", []) + case.get("asks", []):
                if leaf not in t.nodes:
                    v.add(FILE, s.id, f"cases[{i}]", f"no node {leaf!r}")
            err = run_case(s, case)
            if err:
                v.add(FILE, s.id, f"cases[{i}]", f"case {case['name']!r}: {err}")
    for i, m in enumerate(t.matchers):
        if m["symptom"] not in t.symptoms:
            v.add(FILE, m["id"], f"matchers[{i}].symptom", f"no such symptom {m['symptom']!r}")
        try:
            parse_answers(t, m.get("observed"))
        except UsageError as e:
            v.add(FILE, m["id"], f"matchers[{i}].observed", str(e))
    missing = set(SYMPTOMS) - set(t.symptoms)
    if missing:
        v.add(FILE, "", "symptoms", f"no tree for {', '.join(sorted(missing))}")


def _kb_checks():
    return load().checks


def _facts_errors(facts: dict) -> list[tuple[str, str]]:
    from vllm_kb.engine.kb import schemas

    return [(schemas.json_path(p), msg) for p, msg in schemas.errors("facts", facts)]
