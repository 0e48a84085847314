"""`kb validate` for knowledge/decision_tree.yaml."""
from __future__ import annotations

import re

from vllm_kb.engine.advise.diagnose.tree import (
    FILE,
    SYMPTOMS,
    Node,
    parse,
    parse_answers,
)
from vllm_kb.engine.advise.diagnose.walk import run_case
from vllm_kb.engine.kb import cel
from vllm_kb.engine.kb.errors import UsageError
from vllm_kb.engine.kb.knowledge import Text, load


def lint(v, data: dict) -> None:
    """Problems of knowledge/decision_tree.yaml, added to the Validator `v` (engine/validate.py):
    unique ids, CEL that compiles over known facts and declared observations, fix targets that
    exist in the releases they claim, known check ids and symptoms, and every case."""
    from vllm_kb.engine.kb.cel import (
        BUILTIN_FUNCTIONS,
        REGISTERED_FUNCTIONS,
        CelSyntaxError,
    )

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
        for shown in n.show:
            err = v.fact_name(tuple(shown.split(".")))
            if err:
                v.add(FILE, n.id, where + ".show", err)
        for check_id in n.checks:
            if check_id not in registry:
                v.add(FILE, n.id, where + ".checks", f"no such check {check_id!r}")
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
