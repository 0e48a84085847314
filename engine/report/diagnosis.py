"""A diagnosis as a record (JSON, and the CLI's text): the path taken, the leaves with their
advice and checks, the open questions with what each missing fact is and how to supply it."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.advise.diagnose.tree import Tree
from vllm_kb.engine.advise.diagnose.walk import Diagnosis, Result
from vllm_kb.engine.kb.messages import lookup, placeholders, render
from vllm_kb.engine.kb.knowledge import Knowledge, Text


def _text(t: Text | None, lang: str, facts: dict) -> str:
    if t is None:
        return ""
    s = t(lang)
    return render(s, {p: lookup(facts, p) for p in placeholders(s)})


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
        "symptom": {"id": res.symptom.id, "title": res.symptom.title(lang)} if res.symptom else None,
        "launch": [_launch(h, kb, lang) for h in res.launch[:3]],  # bounded: the best three
        "matched": {"matcher": res.matched[0], "text": res.matched[1]} if res.matched else None,
        "observed": {k: _value(v) for k, v in res.observed.items()},
        "hardware": hardware_text(kb, res.hardware, lang),
        "root": str(res.root) if res.root else None,
        "diagnoses": [_diagnosis(d, t, kb, lang) for d in res.diagnoses],
    }
    return redact(out)


def _site_ref(sr) -> dict[str, Any]:
    s = sr.site
    return {"id": s.id, "file": s.file, "line": s.line, "kind": s.kind, "mode": s.mode, "syntax": s.syntax,
            "framework": s.framework, "model": (sr.facts.get("model") or {}).get("name"), "vllm": sr.version.version}


def _uncovered_why(wording: str, lang: str) -> str:
    from vllm_kb.engine.advise.diagnose.launch import UNCOVERED_WHY

    return (UNCOVERED_WHY.get(wording) or {}).get(lang, "")


def _launch(h, kb: Knowledge, lang: str) -> dict[str, Any]:
    """A launch failure the error text names: the check (or finding), the wording, each site's verdict."""
    from vllm_kb.engine.check.rules import rules

    if h.kind == "uncovered":
        return {"id": h.id, "kind": h.kind, "name": "uncovered", "title": kb.t("diagnose.uncovered_title", lang),
                "wording": h.match.text, "wording_vllm": str(h.match.vllm) if h.match.vllm else None,
                "origin": h.match.origin, "whole": h.match.whole, "advice": _uncovered_why(h.match.text, lang)
                or kb.t("diagnose.uncovered_advice", lang), "sites": []}
    rule = rules(kb).for_code(h.id)
    return {
        "id": h.id, "kind": h.kind, "name": rule.name, "title": rule.short(lang),
        "wording": h.match.text, "wording_vllm": str(h.match.vllm) if h.match.vllm else None, "origin": h.match.origin,
        "whole": h.match.whole,
        "advice": rule.check.advice(lang) if rule.check else rule.full(lang),
        "sites": [{"site": _site_ref(v.site), "status": v.status, "priority": v.priority, "reason": _said(v.reason[lang], kb, lang),
                   "changes": [c.to_json() for c in v.changes]} for v in h.sites],
    }


def _said(reason: str, kb: Knowledge, lang: str) -> str:
    """A verdict's reason, never blank: a check whose `otherwise` says nothing ("—") still says why it does not fire."""
    return reason if reason.strip().strip("—").strip() else kb.t("diagnose.no_reason", lang)


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
    assert w is not None  # only a skipped site has no walk
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
