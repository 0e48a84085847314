"""Every check's own cases (knowledge/checks/*.yaml › cases), through one parametrised test."""
from __future__ import annotations

import pytest
from vllm_kb.engine.check.evaluate import evaluate
from vllm_kb.engine.check.owners import settle_owners
from vllm_kb.engine.kb import cel, schemas
from vllm_kb.engine.kb.knowledge import load

KB = load()
CASES = [(c, case) for c in KB.checks for case in c.cases]


@pytest.mark.parametrize("check,case", CASES, ids=[f"{c.id}-{case['name']}" for c, case in CASES])
def test_case(check, case):
    facts = case["facts"]
    assert not schemas.errors("facts", facts), "case facts must follow schema/facts.schema.json"
    res = evaluate(check, facts, cel.Activation(facts), {}, KB)
    settle_owners([res], [], facts, KB)  # an owner that takes the cause at the case's site (`where:`)
    assert res.status == case["expect"], res.reason_text("en")
    if "priority" in case:
        assert res.priority == case["priority"]
    if res.status == "recommended":
        assert res.priority in ("P0", "P1", "P2")


def test_every_check_with_a_recommendation_has_a_case_that_fires_it():
    for c in KB.checks:
        if any(r.status == "recommended" for r in c.rules):
            assert any(case["expect"] == "recommended" for case in c.cases), c.id
        assert len({case["expect"] for case in c.cases}) >= 2, f"{c.id}: cases must cover at least two outcomes"


def test_the_seed_rows_are_all_there():
    per_category = {}
    launch = [c for c in KB.checks if c.category in LAUNCH]
    for c in KB.checks:
        if c.id not in BEYOND_SEED and c.category not in LAUNCH:
            per_category[c.category] = per_category.get(c.category, 0) + 1
    # the seed's tables list 5/6/5/7/5/4/5/7/5/6 rows (its score template's 52 does not match them)
    assert per_category == {"A": 5, "B": 6, "C": 5, "D": 7, "E": 5, "F": 4, "G": 5, "H": 7, "I": 5, "J": 6}
    assert len(KB.checks) == 55 + len(BEYOND_SEED) + len(launch)


def test_launch_checks_cite_vllm():
    """Every launch check (category L) says vLLM's words and where each P0 is decided."""
    for c in KB.checks:
        if c.category in LAUNCH:
            assert c.error_text, c.id
            for r in c.rules:
                if r.status == "recommended" and (r.priority or c.priority) == "P0":
                    assert r.source, (c.id, r.index)


# Checks the knowledge adds beyond the seed's rows (ids are never reused).
BEYOND_SEED = {"B7", "H8", "H9"}  # H8 rollout-server-gpus: TRL/ms-swift server mode (issue 16); H9 max-model-len-completion-only (eval115 M7)
# "Will vLLM start at all" (knowledge/checks/L.yaml): not rows of the seed's optimisation checklist.
LAUNCH = {"L"}  # kv-cache-capacity: the memory estimate against max_num_seqs (issue 5)
