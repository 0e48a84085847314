"""The decision tree of knowledge/decision_tree.yaml as data: symptoms, nodes (a CEL condition
over a site's audit facts and `observed.*`, what only the user can tell), observations, fixes;
and how an error text or the user's answers become observations."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from vllm_kb.engine.kb.errors import UsageError
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
