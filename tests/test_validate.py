"""`kb validate` catches what a knowledge author gets wrong, and says where."""
import copy

import pytest
from vllm_kb.engine.kb import schemas
from vllm_kb.engine.kb.errors import KnowledgeError, UsageError
from vllm_kb.engine.kb.knowledge import Registry, _check_from, load
from vllm_kb.engine.validate import Validator

KB = load()
B3 = next(c for c in KB.checks if c.id == "B3").raw


def problems_for(raw: dict, category: str = "B") -> list[str]:
    v = Validator()
    data = {"category": category, "checks": [raw]}

    def id_for(path):
        return (raw.get("id", ""), path[2:]) if len(path) >= 2 else ("", path)

    if v.schema("knowledge/checks/B.yaml", "checks", data, id_for):
        v.check(_check_from(raw, category, "knowledge/checks/B.yaml"))
    return [str(p) for p in v.problems]


def test_the_shipped_knowledge_is_valid():
    problems, stats = Validator().run()
    assert problems == [], "\n".join(map(str, problems))


def test_schema_errors_point_at_the_value():
    bad = copy.deepcopy(B3)
    bad["priority"] = "P4"
    bad["rules"][1]["fix"] = [{"set": "kv_cache_dtype"}]
    out = problems_for(bad)
    assert "knowledge/checks/B.yaml › B3 › priority: expected one of P0, P1, P2, got 'P4'" in out
    assert any(p.startswith("knowledge/checks/B.yaml › B3 › rules[1]") for p in out)


def test_unknown_fact_flag_and_function_are_rejected():
    bad = copy.deepcopy(B3)
    bad["rules"][1]["when"] = 'engine.kv_cache_dtpye == "fp8" && gpu.colour == 1 && shout(gpu.name)'
    fixing = max(i for i, r in enumerate(bad["rules"]) if r.get("fix"))
    bad["rules"][fixing]["fix"] = [{"set": "swap_space", "value": 4}]
    out = "\n".join(problems_for(bad))
    assert "no vLLM argument 'kv_cache_dtpye'" in out
    assert "unknown fact 'gpu.colour'" in out
    assert "unregistered CEL function 'shout'" in out
    assert "argument 'swap_space' is set for vLLM" in out  # swap_space is gone from 0.18


def test_case_expectations_are_checked():
    bad = copy.deepcopy(B3)
    next(c for c in bad["cases"] if c["name"] == "hopper-new")["expect"] = "enabled"
    assert any("case 'hopper-new': expected enabled, got recommended" in p for p in problems_for(bad))


def test_duplicate_ids_and_names_fail_loudly():
    a = _check_from(B3, "B", "B.yaml")
    b = _check_from(dict(B3, id="B9"), "B", "B.yaml")
    with pytest.raises(KnowledgeError, match="duplicate id or name 'kv-cache-fp8'"):
        Registry([a, b])


def test_lookup_by_id_name_or_alias():
    assert KB.checks.get("b3").name == "kv-cache-fp8" and KB.checks.get("KV-CACHE-FP8").id == "B3"
    with pytest.raises(UsageError, match="no such check"):
        KB.checks.get("nope")


def test_every_ui_string_has_both_languages():
    assert schemas.errors("i18n", KB.doc("i18n.yaml").data) == []
