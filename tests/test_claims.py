"""Every versioned claim in the knowledge, verified against the catalogs for every release it
covers (engine/kb/claims); and each of the wrong claims issue 19 found, put back, is caught."""
from __future__ import annotations

import copy

import pytest

from vllm_kb.engine.kb import catalog as catalog_mod
from vllm_kb.engine.kb import claims, resources, yamlio
from vllm_kb.engine.kb.claims import collect, frameworks
from vllm_kb.engine.kb.claims.facts import FactSyntaxError, parse
from vllm_kb.engine.kb.claims.verify import verify


@pytest.fixture(scope="module")
def cat():
    return catalog_mod.load()


def _doc(*parts):
    return yamlio.load(resources.read_text("knowledge", *parts)).data


def test_shipped_knowledge_holds_in_every_release_it_claims(cat):
    problems = claims.problems(cat) + frameworks.problems()
    assert problems == [], "\n".join(f"{f} {i} {p}: {m}" for f, i, p, m in problems[:20])


def test_every_versioned_claim_is_collected(cat):
    """Each check gate, rule range, scenario (item), tree fix range and effective default is a claim."""
    got = {(c.file.rsplit("/", 1)[-1], c.id, c.path) for c in claims.all_claims()}
    from vllm_kb.engine.kb.knowledge import CATEGORY_FILES

    for cat_id in CATEGORY_FILES:
        for check in _doc("checks", f"{cat_id}.yaml")["checks"]:
            if (check.get("applies_to") or {}).get("vllm"):
                assert (f"{cat_id}.yaml", check["id"], "applies_to.vllm") in got
            for i, r in enumerate(check["rules"]):
                if r.get("vllm"):
                    assert (f"{cat_id}.yaml", check["id"], f"rules[{i}]") in got
    ranged = [d for d in _doc("vllm", "effective_defaults.yaml")["defaults"]]
    assert sum(1 for c in claims.all_claims() if c.file.endswith("effective_defaults.yaml")) == len(ranged)


def _check_problems(cat, check: dict) -> list[str]:
    return [m for _, _, m in verify(list(collect.checks({"knowledge/checks/X.yaml": {"checks": [check]}})), cat)]


def _find(check_id: str, file: str) -> dict:
    return copy.deepcopy(next(c for c in _doc("checks", file)["checks"] if c["id"] == check_id))


def test_item1_capture_size_flag_gated_from_0_12_is_caught(cat):
    a5 = _find("A5", "A.yaml")
    for r in a5["rules"]:
        if r.get("vllm") == ">=0.11.1":
            r["vllm"] = ">=0.12.0"
        elif r.get("vllm") == "<0.11.1":
            r["vllm"] = "<0.12.0"
    msgs = _check_problems(cat, a5)
    assert any("between vLLM 0.11.2 and 0.12.0" in m and "max_cudagraph_capture_size changes at 0.11.1" in m for m in msgs)


def test_item1_kv_offloading_gated_from_0_12_is_caught(cat):
    b5 = _find("B5", "B.yaml")
    next(r for r in b5["rules"] if r.get("vllm") == ">=0.11.1")["vllm"] = ">=0.12.0"
    assert any("kv_offloading_size changes at 0.11.1" in m for m in _check_problems(cat, b5))


def test_item2_fp8_kv_fallback_is_stated_with_catalog_evidence(cat):
    b3 = _find("B3", "B.yaml")
    assert any("feature engine.v1_fallbacks has kv_cache_dtype" in (r.get("evidence") or []) for r in b3["rules"])
    # the catalog itself: kv_cache_dtype can send V1 back to V0 exactly in 0.8.0 … 0.10.2
    f = parse("feature engine.v1_fallbacks has kv_cache_dtype")
    assert [str(v) for v in cat.versions if f.value_at(cat, str(v)) is True][::len(cat.versions)] == ["0.8.0"]
    assert f.value_at(cat, "0.10.2") is True and f.value_at(cat, "0.11.0") is False


def test_item4_draft_model_before_0_15(cat):
    g3 = _find("G3", "G.yaml")
    refuse = next(r for r in g3["rules"] if r.get("priority") == "P0")
    assert refuse["vllm"] == ">=0.10.0,<0.15.0"
    refuse["vllm"] = ">=0.10.0,<0.16.0"  # a wrong upper bound is caught
    assert any("not feature spec_decode.v1_methods has draft_model" in m for m in _check_problems(cat, g3))


def test_item5_ipc_weight_transfer_only_from_0_17(cat):
    assert cat.allowed_values(("weight_transfer_config", "backend"), "0.16.0")[0] == ["nccl"]
    assert "ipc" in cat.allowed_values(("weight_transfer_config", "backend"), "0.17.0")[0]


def test_item6_p2p_nccl_enabled_outside_its_releases_is_caught(cat):
    i3 = _find("I3", "I.yaml")
    i3["rules"] = [{"status": "enabled", "reason": {"en": "x", "zh": "x"},
                    "when": 'has(args.kv_transfer_config) && args.kv_transfer_config.kv_connector in ["NixlConnector", "P2pNcclConnector"]'}]
    msgs = _check_problems(cat, i3)
    assert any("'P2pNcclConnector' is no longer a value vLLM accepts in 0.24.0 … 0.34.0" in m for m in msgs)


def test_item7_spawn_from_0_6_3(cat):
    j3 = _find("J3", "J.yaml")
    rule = next(r for r in j3["rules"] if "multiproc.cli_spawn" in str(r.get("evidence")))
    assert rule["vllm"] == ">=0.6.3"
    rule["vllm"] = ">=0.7.3"  # the old claim
    assert any("between vLLM 0.7.2 and 0.7.3" in m for m in _check_problems(cat, j3))


def test_item8_trl_guided_decoding_regex_is_checked_against_trl_wheels():
    fc = frameworks.compat.framework_catalog()["frameworks"]["trl"]
    bad = frameworks.key_problems("trl", {"key": "vllm_guided_decoding_regex", "versions": "<0.18"}, fc["releases"], fc["keys"])
    assert any("leaves out trl 0.18.0 … 0.27.2" in m for _, m in bad)
    assert frameworks.key_problems("trl", {"key": "vllm_guided_decoding_regex", "versions": ">=0.16.0,<0.28.0"}, fc["releases"], fc["keys"]) == []


def test_item9_flash_attn_version_4_only_from_0_17(cat):
    assert cat.allowed_values(("attention_config", "flash_attn_version"), "0.16.0")[0] == [2, 3]
    f1 = _find("F1", "F.yaml")
    rule = next(r for r in f1["rules"] if "flash_attn_version == 4'" in r["when"] or r["when"].endswith("== 4"))
    rule["vllm"] = ">=0.13.0,<0.18.0"
    assert any("not value attention_config.flash_attn_version 4" in m for m in _check_problems(cat, f1))


def test_evidence_that_does_not_hold_is_reported(cat):
    check = {"id": "X1", "applies_to": {"vllm": ">=0.18.0", "modes": ["standalone_serve"], "evidence": ["arg swap_space"]},
             "rules": [{"status": "enabled", "when": "true", "reason": {"en": "x", "zh": "x"}}]}
    assert any("`arg swap_space` does not hold in vLLM 0.18.0 … 0.34.0" in m for m in _check_problems(cat, check))


def test_hand_kept_claims_need_a_reason_and_still_state_true_facts(cat):
    check = {"id": "X1", "applies_to": {"vllm": ">=0.8.1", "modes": ["standalone_serve"],
                                        "source": {"url": "https://example.org", "reason": "behaviour, not a catalog fact"}},
             "rules": [{"status": "enabled", "when": "true", "reason": {"en": "x", "zh": "x"}}]}
    assert _check_problems(cat, check) == []
    check["applies_to"]["evidence"] = ["not feature engine.default = \"v1\""]
    assert _check_problems(cat, check)  # a hand-kept claim's evidence is still checked


@pytest.mark.parametrize("text", ["arg", "value quantization", "default x 3", "feature a ~ b", "field nodot", "argh x"])
def test_evidence_syntax_errors(text):
    with pytest.raises(FactSyntaxError):
        parse(text)


def test_facts_evaluate_per_release(cat):
    assert parse("arg swap_space").value_at(cat, "0.17.1") is True
    assert parse("not arg swap_space").value_at(cat, "0.18.0") is True
    assert parse("value quantization fp8_per_block").value_at(cat, "0.19.1") is False
    assert parse("default gpu_memory_utilization = 0.92").value_at(cat, "0.20.0") is True
    assert parse("enum tool_call_parser hermes").value_at(cat, "0.8.5") is True
    assert parse("feature engine.default = \"v0\"").value_at(cat, "0.7.3") is True


def test_parser_table_agrees_with_the_catalog(cat):
    """knowledge/vllm/parsers.yaml (kept by hand for L38) says what the catalog's enums say."""
    from vllm_kb.engine.kb.versions import parse as vparse

    table = _doc("vllm", "parsers.yaml")["parsers"]
    bad = []
    for kind, names in table.items():
        for name, span in names.items():
            a, _, b = span.partition("..")
            for v in cat.versions:
                got = cat.allowed_values((kind,), str(v))
                if got and (vparse(a) <= v <= vparse(b or a)) != (name in got[0]):
                    bad.append((kind, name, str(v)))
    assert bad == []
