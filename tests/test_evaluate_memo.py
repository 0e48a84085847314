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


def test_a_cuda_only_check_is_not_answered_for_rocm_from_a_cuda_site():
    # the memo's key holds the platform and the GPU's name for such checks: a ROCm site after a CUDA
    # site with the same rule facts got the CUDA site's verdict (tests/test_stream.py's in-order
    # report differed from the forked workers' where the order of the sites differed)
    kb = load()
    check = next(c for c in kb.checks if c.cuda_only)
    cuda = _facts("standalone_serve")
    rocm = {**cuda, "site": {"mode": "standalone_serve", "platform": "rocm"}, "gpu": {"name": "AMD Instinct MI300X"}}
    ev._evaluate_once(check, cuda, cel.Activation(cuda), {}, kb)
    got = ev._evaluate_once(check, rocm, cel.Activation(rocm), {}, kb)
    assert got == ev.evaluate(check, rocm, cel.Activation(rocm), {}, kb)
    assert got.status == "not_applicable" and "ROCm" in got.reason.en
