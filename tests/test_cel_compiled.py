"""The translated predicates (engine/kb/cel_compile.py) against cel-python's interpreter, the
reference: every CEL expression in knowledge/ over every check case, the facts of every activation
an audit, detect and diagnose of the fixtures build, and facts made up from each predicate's own
paths with values of every type (missing ones included, so "unknown" is compared too)."""
from __future__ import annotations

import copy
import functools
import random
from pathlib import Path

import pytest
from vllm_kb.engine.kb import cel, cel_compile, resources, yamlio
from vllm_kb.engine.kb.knowledge import load

ROOT = Path(__file__).parent
CEL_KEYS = ("when", "value_from", "show")


@functools.cache
def _sources() -> list[str]:
    # read when a test here first asks (not at collection, in every pytest-xdist worker)
    out: set[str] = set()

    def walk(node, key=None):
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, k)
        elif isinstance(node, list):
            for v in node:
                walk(v, key)
        elif isinstance(node, str) and key in CEL_KEYS:
            out.add(node)

    base = resources.root("knowledge")
    stack = [base]
    while stack:
        node = stack.pop()
        for child in node.iterdir():
            if child.is_dir():
                stack.append(child)
            elif child.name.endswith(".yaml"):
                walk(yamlio.load_all(child.read_text(encoding="utf-8"))[0].data)
    return sorted(out)


def _recorded_facts() -> list[dict]:
    """The facts of every Activation the engine builds for the fixtures and the example."""
    from vllm_kb.engine import diagnosis
    from vllm_kb.engine.advise import detect
    from vllm_kb.engine.audit import audit
    from vllm_kb.engine.report import model

    seen: list[dict] = []
    orig = cel.Activation.__init__

    def record(self, facts):
        seen.append(facts)
        orig(self, facts)

    cel.Activation.__init__ = record
    try:
        for project in sorted((ROOT / "fixtures").iterdir()) + [ROOT.parent / "examples" / "quickstart"]:
            for gpu in ("H100-80GB x8", "A100-40GB x2"):
                model.build(audit(project, gpu=gpu), "en")
            detect.detect(project)
            diagnosis.diagnose(project, symptom="oom", gpu="H100-80GB x8")
    finally:
        cel.Activation.__init__ = orig
    return seen


VALUES = [None, True, False, 0, 1, 2, 8, 0.5, 0.95, 2048.0, 1e9, "", "fp8", "auto", "standalone_serve", "0.10.1",
          "x.y", ["a", "fp8"], [1, 2.0], [], {}, {"method": "eagle"}]


def _made_up(pred: cel.Predicate, rng: random.Random) -> dict:
    facts: dict = {}
    for p in sorted(pred.paths):
        if rng.random() < 0.2:
            continue  # absent
        cur = facts
        for part in p[:-1]:
            nxt = cur.get(part)
            if not isinstance(nxt, dict):
                nxt = cur[part] = {}
            cur = nxt
        cur[p[-1]] = copy.deepcopy(rng.choice(VALUES))  # a shared {} written into below would nest in itself
    return facts


def _same(pred: cel.Predicate, facts: dict, act: cel.Activation | None = None) -> tuple[bool, bool]:
    """(equal, deferred): the translation's verdict and value against the interpreter's. One
    Activation serves every reading, as the audit hands one site's to all its predicates: the
    translation reads its normalised groups, the interpreter its CEL conversion, neither the other's."""
    act = act or cel.Activation(facts)
    fast, ref = pred.evaluate(act), pred.interpret(act)
    ok = fast == ref
    if ok:
        got, want = pred.compute(act), pred.compute_interpreted(act)
        ok = got == want and [type(x) for x in _flat(got)] == [type(x) for x in _flat(want)]
    return ok, pred._compiled(act) is None


def _flat(v):
    if isinstance(v, (list, tuple)):
        return [y for x in v for y in _flat(x)]
    if isinstance(v, dict):
        return [y for k in sorted(v) for y in _flat(v[k])]
    return [v]


def test_every_knowledge_predicate_translates():
    untranslated = [s for s in _sources() if cel.compile(s).code is None]
    assert len(_sources()) > 250 and not untranslated, untranslated


def test_the_translation_agrees_with_the_interpreter_on_every_case_and_activation():
    kb = load()
    fact_sets = [case["facts"] for c in kb.checks for case in c.cases] + _recorded_facts()
    unique = {repr(sorted(f.items(), key=str)): f for f in fact_sets}
    bad, runs, deferred, unknown = [], 0, 0, 0
    by_groups: dict[frozenset, list[dict]] = {}
    acts: dict[int, cel.Activation] = {}  # id(facts) → its Activation, for every predicate it is run against
    for src in _sources():
        pred = cel.compile(src)
        groups = frozenset(p[0] for p in pred.paths)
        if groups not in by_groups:
            # a predicate reads nothing but its top-level groups: activations that agree on them
            # give it the same answer, one of each is run (a third of the runs, the same verdicts)
            one: dict[str, dict] = {}
            for facts in unique.values():
                if groups and not groups & set(facts):
                    continue  # nothing it reads: the case below covers missing groups
                # …and is handed only those (the reference converts every group it is given)
                mine = {g: facts[g] for g in groups if g in facts} if groups else facts
                one.setdefault(repr(sorted(mine.items())), mine)
            by_groups[groups] = list(one.values())
        for facts in by_groups[groups]:
            act = acts.get(id(facts))
            if act is None:
                act = acts[id(facts)] = cel.Activation(facts)
            ok, d = _same(pred, facts, act)
            runs += 1
            deferred += d
            unknown += pred.evaluate(act).value is None
            if not ok:
                bad.append((src, facts))
    assert not bad, bad[:3]
    assert runs > 5000 and unknown > 500
    assert deferred < runs * 0.02, f"{deferred} of {runs} evaluations left the translation"


def test_the_translation_agrees_on_made_up_facts_of_every_type():
    rng = random.Random(17)
    bad = []
    for src in _sources():
        pred = cel.compile(src)
        for _ in range(12):
            facts = _made_up(pred, rng)
            if not _same(pred, facts)[0]:
                bad.append((src, facts))
    assert not bad, bad[:3]


@pytest.mark.parametrize("src,facts", [
    ("x.y in [\"a\"] || true", {"x": {}}),
    ("!(x.y == 1) && false", {"x": {"y": "s"}}),
    ("true && \"s\"", {}),
    ("s.b == 1", {"s": {"b": True}}),
    ("7 / 2 == 3", {}),
    ("a.n / 0.0 > 1.0", {"a": {"n": 2}}),
    ("has(a.b.c) ? a.b.c : 3", {"a": {"b": "str"}}),
    ("keys[\"v.n\"] <= 0", {"keys": {"v.n": 2}}),
    ("version_ge(a.v, \"0.10\")", {"a": {"v": "not a version"}}),
    ("int(a.x) + size(a.s) * 2 - 1", {"a": {"x": -2.7, "s": "abc"}}),
    ("{\"m\": a.m, \"n\": [1, 2.5]}", {"a": {"m": 3.0}}),
    ("a.s.matches(\"^[0-9]+$\") && a.s.matches(\"[1-9]\")", {"a": {"s": "010"}}),
    ("a.s.matches(\"[1-9]\")", {"a": {"s": "x0"}}),
])
def test_edges_agree(src, facts):
    assert _same(cel.compile(src), facts)[0]


def test_a_cached_translation_needs_no_parser(tmp_path, monkeypatch):
    monkeypatch.setenv("VLLM_KB_CACHE_DIR", str(tmp_path))
    src = 'site.mode == "standalone_serve" && gpu.count >= 2.0'
    first = cel.compile.__wrapped__(src)
    monkeypatch.setattr(cel, "_backend", lambda: pytest.fail("the parser was needed"))
    again = cel.compile.__wrapped__(src)
    assert again.code == first.code and again.paths == first.paths
    assert again.evaluate({"site": {"mode": "standalone_serve"}, "gpu": {"count": 8}}).value is True
    assert again.evaluate({"site": {"mode": "standalone_serve"}}).missing == ("gpu.count",)
    assert cel_compile.VERSION >= 1


def test_compiled_code_comes_back_from_the_cache(tmp_path, monkeypatch):
    """A translation's compiled code is kept (marshal) and run as compiled; an entry that is not
    code is compiled again."""
    monkeypatch.setenv("VLLM_KB_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(cel_compile, "_CODES", None)
    code = cel.compile.__wrapped__('gpu.count >= 2.0 && site.mode == "offline"').code
    assert cel_compile.build(code)({"gpu": {"count": 4}, "site": {"mode": "offline"}}) is True
    cel_compile._codes().flush()
    monkeypatch.setattr(cel_compile, "_CODES", None)
    monkeypatch.setattr(cel_compile, "compile", lambda *a: pytest.fail("compiled again"), raising=False)
    assert cel_compile.build(code)({"gpu": {"count": 1}, "site": {"mode": "offline"}}) is False
    monkeypatch.undo()
    monkeypatch.setenv("VLLM_KB_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(cel_compile, "_CODES", None)
    cel_compile._codes().put(code, "not code")
    assert cel_compile.build(code)({"gpu": {"count": 4}, "site": {"mode": "offline"}}) is True
