"""Every name a rule answers to (its id, its name, its aliases) names that rule only: `vllm-kb checks show`,
`select`/`ignore` and the realcase scorers look rules up by any of them."""
from __future__ import annotations

import copy
import dataclasses

import pytest
from vllm_kb.engine.check.rules import Rules, rules
from vllm_kb.engine.kb.errors import KnowledgeError
from vllm_kb.engine.kb.knowledge import load


@pytest.mark.parametrize(("name", "rule"), [("tp-divides-heads", "L1"), ("bf16-unsupported-gpu", "L4"),
                                            ("model-arch-unsupported", "L21"), ("attention-backend-softcap", "L65"),
                                            ("unknown-cli-flag", "unknown-option"), ("Unknown-Engine-Arg", "unknown-option")])
def test_the_names_people_give_a_cause_find_its_rule(name, rule):
    assert rules().find(name).id == rule


def test_a_name_two_rules_answer_to_fails_loudly():
    kb = copy.copy(load())
    kb.checks = [dataclasses.replace(c, aliases=(*c.aliases, "tp-divides-heads")) if c.id == "L4" else c for c in kb.checks]
    with pytest.raises(KnowledgeError, match="tp-divides-heads"):
        Rules(kb)
