"""engine/check/evaluate.py answers a site's checks through two memos (a check outside the site's
mode by (check, mode); the others by the facts the check reads): each answer equals what
`evaluate` says for those facts, and each is a fresh Result (callers lower priorities in place)."""
from __future__ import annotations

from vllm_kb.engine.check import evaluate as ev
from vllm_kb.engine.kb import cel
from vllm_kb.engine.kb.knowledge import load


def _facts(mode: str | None, version: str = "0.11.0") -> dict:
    return {"site": {"mode": mode, "platform": "cuda"}, "vllm": {"version": version}, "args": {}, "engine": {},
            "env": {}, "gpu": {}, "model": {}}


def test_each_answer_is_what_evaluate_says_and_a_copy_of_its_own():
    kb = load()
    modes = sorted({m for c in kb.checks for m in c.modes}) + [None, "no_such_mode"]
    for mode in modes:
        for version in ("0.6.3", "0.11.0"):
            facts = _facts(mode, version)
            act = cel.Activation(facts)
            for check in kb.checks:
                want = ev.evaluate(check, facts, cel.Activation(facts), {}, kb)
                first = ev._evaluate_once(check, facts, act, {}, kb)
                assert first == want, (check.id, mode, version)
                first.priority = "P9"  # what settle_priorities / cap_opaque do to a result
                again = ev._evaluate_once(check, facts, act, {}, kb)
                assert again == want and again is not first, (check.id, mode, version)


def test_a_result_copy_is_a_shallow_copy():
    kb = load()
    facts = _facts("standalone_serve")
    r = ev.evaluate(next(iter(kb.checks)), facts, cel.Activation(facts), {}, kb)
    c = ev._copy(r)
    assert c == r and c is not r and type(c) is type(r) and c.__dict__ == r.__dict__
    assert all(c.__dict__[k] is r.__dict__[k] for k in r.__dict__)
