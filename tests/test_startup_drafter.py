"""The speculative draft and EAGLE-3 target a release refuses before it starts (L150–L151), read per
release from knowledge/vllm/spec_decode.yaml."""
from __future__ import annotations

import pytest

from vllm_kb.engine.check.startup_drafter import drafter_arch, eagle3_target
from vllm_kb.engine.kb.knowledge import load
from vllm_kb.engine.kb.models import model_facts


@pytest.fixture(scope="module")
def kb():
    return load()


def _table(kb):
    return kb.doc("vllm", "spec_decode.yaml").data


@pytest.mark.parametrize("draft,version,refused", [
    ("yuhuili/EAGLE-Qwen2-7B-Instruct", "0.10.2", True),
    ("yuhuili/EAGLE-LLaMA3-Instruct-8B", "0.10.2", False),
    ("yuhuili/EAGLE-Qwen2-7B-Instruct", "0.8.5", False),  # 0.8.4–0.8.5 load every EAGLE head as EagleLlama
    ("yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "0.10.2", False),  # EAGLE-3 heads name their own class
])
def test_drafter_arch(kb, draft, version, refused):
    engine = {"speculative_config": {"method": "eagle", "model": draft, "num_speculative_tokens": 3}}
    got = drafter_arch(engine, {}, lambda n: model_facts(n, kb.models, []), kb.doc("vllm", "architectures.yaml").data,
                       _table(kb), version)
    assert ("spec_draft_arch_refused" in got) is refused


@pytest.mark.parametrize("model_type,version,refused", [
    ("qwen3", "0.10.0", True), ("qwen3", "0.10.1.1", False), ("mistral", "0.16.0", True),
    ("deepseek_v3", "0.17.0", True), ("deepseek_v3", "0.18.0", False), ("mistral", "0.22.0", False),
])
def test_eagle3_target(kb, model_type, version, refused):
    engine = {"speculative_config": {"method": "eagle3", "model": "d", "num_speculative_tokens": 3}}
    got = eagle3_target(engine, {"model_type": model_type, "multimodal": False}, _table(kb), version)
    assert ("spec_eagle3_refused" in got) is refused


def test_eagle3_multimodal_target_not_judged(kb):
    engine = {"speculative_config": {"method": "eagle3", "model": "d", "num_speculative_tokens": 3}}
    assert eagle3_target(engine, {"model_type": "llava", "multimodal": True}, _table(kb), "0.10.0") == {}


@pytest.mark.parametrize("model_type,arch,version,pp,draft", [
    ("deepseek_v3", "DeepseekV3ForCausalLM", "0.9.2", None, "DeepSeekMTPModel"),  # its class has SupportsPP there
    ("glm_moe_dsa", "GlmMoeDsaForCausalLM", "0.27.1", None, "DeepSeekMTPModel"),
    ("deepseek_v4", "DeepseekV4ForCausalLM", "0.27.1", None, "DeepSeekV4MTPModel"),
    ("qwen3_5", "Qwen3_5ForConditionalGeneration", "0.27.1", None, "Qwen3_5MTP"),  # picked by model_type
    ("qwen3_5_moe", "Qwen3_5MoeForConditionalGeneration", "0.17.0", None, "Qwen3_5MoeMTP"),
    ("llama", "LlamaForCausalLM", "0.27.1", None, None),
])
def test_mtp_draft(kb, model_type, arch, version, pp, draft):
    from vllm_kb.engine.check.startup_drafter import mtp_draft
    steps = _table(kb)["per_release"][version]["mtp_steps"]
    assert mtp_draft(steps, model_type, arch) == draft


def test_qwen3_5_mtp_under_pp(kb):
    """vLLM #36643: Qwen3.5-35B-A3B under PP 4 with MTP on 0.17.0; the draft becomes Qwen3_5MoeMTP,
    which lacks SupportsPP up to 0.29 (qwen3_5_mtp.py:335/442), so the draft's config check refuses it."""
    engine = {"pipeline_parallel_size": 4, "speculative_config": {"method": "qwen3_next_mtp", "num_speculative_tokens": 2}}
    model = {"name": "Qwen/Qwen3.5-35B-A3B", "architecture": "Qwen3_5MoeForConditionalGeneration", "model_type": "qwen3_5_moe"}
    arch = kb.doc("vllm", "architectures.yaml").data
    got = drafter_arch(engine, model, lambda n: {}, arch, _table(kb), "0.17.0")
    assert got.get("spec_draft_arch") == "Qwen3_5MoeMTP" and "spec_draft_pp_refused" in got
    assert drafter_arch(engine, model, lambda n: {}, arch, _table(kb), "0.30.0") == {}  # SupportsPP from 0.30


def test_dspark_under_pp(kb):
    """vLLM #52761: DeepSeek-V4 with DSpark under PP 3; the target implements SupportsPP, its DSpark
    draft does not, and the draft's configuration check refuses it."""
    engine = {"pipeline_parallel_size": 3, "speculative_config": {"method": "dspark", "num_speculative_tokens": 7}}
    model = {"name": "deepseek-ai/DeepSeek-V4-Flash", "architecture": "DeepseekV4ForCausalLM", "model_type": "deepseek_v4"}
    got = drafter_arch(engine, model, lambda n: {}, kb.doc("vllm", "architectures.yaml").data, _table(kb), "0.27.1")
    assert got.get("spec_draft_arch") == "DSparkDraftModel" and "spec_draft_pp_refused" in got
    engine["pipeline_parallel_size"] = 1
    assert drafter_arch(engine, model, lambda n: {}, kb.doc("vllm", "architectures.yaml").data, _table(kb), "0.27.1") == {}


@pytest.mark.parametrize("arch,version,refused,since", [
    ("Qwen3MoeForCausalLM", "0.10.2", True, "0.11.1"),  # vLLM #25134
    ("Qwen3MoeForCausalLM", "0.11.1", False, None),
    ("LlamaForCausalLM", "0.10.2", False, None),
    ("Qwen3MoeForCausalLM", "0.10.0", False, None),  # no runner check yet (the model_type list judges it)
])
def test_eagle3_interface(kb, arch, version, refused, since):
    engine = {"speculative_config": {"method": "eagle3", "model": "d", "num_speculative_tokens": 2}}
    got = eagle3_target(engine, {"model_type": "qwen3_moe", "multimodal": False}, _table(kb), version, arch)
    assert ("spec_eagle3_interface_refused" in got) is refused
    assert got.get("spec_eagle3_since") == since
