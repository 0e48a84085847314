"""A quantization config kept in a multimodal checkpoint's language-model sub-config (text_config /
llm_config): read from config.json and the catalog (engine/kb/model_config.py), and what vLLM makes
of it per release (engine/check/startup_quant.py: read without --quantization only from 0.10.2)."""
from __future__ import annotations

from vllm_kb.engine.check.startup_quant import quant_facts
from vllm_kb.engine.kb import catalog as catalog_mod
from vllm_kb.engine.kb import hub_uploads, knowledge, models
from vllm_kb.engine.kb.model_config import config_scalars

KB = knowledge.load()
DATA = KB.doc("models.yaml").data

AWQ = {"quant_method": "awq", "bits": 4, "group_size": 128, "zero_point": True, "version": "gemm"}


def _scalars(config: dict) -> dict:
    facts: dict = {}
    config_scalars(facts, config, None)
    return facts


def test_nested_quantization_config_is_read():
    for key in ("text_config", "llm_config"):
        facts = _scalars({"architectures": ["InternVLChatModel"], key: {"quantization_config": AWQ}})
        assert facts["quantized"] is True and facts["quant_method"] == "awq"
        assert facts["quant_source"] == "config" and facts["quant_nested"] is True


def test_top_level_config_wins_and_plain_stays_plain():
    facts = _scalars({"quantization_config": AWQ, "text_config": {"quantization_config": {"quant_method": "gptq"}}})
    assert facts["quant_method"] == "awq" and "quant_nested" not in facts
    plain = _scalars({"architectures": ["LlavaForConditionalGeneration"], "text_config": {"hidden_size": 4096}})
    assert plain["quantized"] is False and "quant_nested" not in plain


def _startup(model: dict, version: str, engine: dict | None = None) -> dict:
    facts = {"model": model, "engine": engine or {}, "args": dict(engine or {}), "gpu": {}}
    return quant_facts(facts, KB.doc("vllm", "startup.yaml").data, catalog_mod.load(), version)


def test_releases_before_0102_do_not_see_it_without_the_flag():
    model = {"name": "OpenGVLab/InternVL2-8B-AWQ", "quantized": True, "quant_method": "awq",
             "quant_source": "config", "quant_nested": True}
    before = _startup(model, "0.6.4")
    assert before == {"quant_method": "none", "quant_nested_unread": "awq"}
    assert _startup(model, "0.10.2")["quant_method"] == "awq"
    flagged = _startup(model, "0.6.4", {"quantization": "awq"})
    assert flagged["quant_method"] == "awq" and "quant_nested_unread" not in flagged


def _identify(name: str, config: dict | None = None) -> dict:
    return models.model_facts(name, KB.models, DATA["quantized_markers"], config=config, identity=DATA)


def test_catalog_marks_opengvlab_internvl_awq():
    got = _identify("OpenGVLab/InternVL2-Llama3-76B-AWQ")
    assert got["quant_nested"] is True and got["quant_method"] == "awq"
    assert "quant_nested" not in _identify("OpenGVLab/InternVL2_5-8B")
    # the checkpoint's own config.json wins over the catalog either way
    top = _identify("OpenGVLab/InternVL2_5-8B-AWQ", {"architectures": ["InternVLChatModel"], "quantization_config": AWQ})
    assert "quant_nested" not in top and top["quant_source"] == "config"
    nested = _identify("/models/internvl-sft-awq", {"architectures": ["InternVLChatModel"], "llm_config": {"quantization_config": AWQ}})
    assert nested["quant_nested"] is True and nested["quant_source"] == "config"


def test_a_layout_guessed_from_the_name_keeps_the_method():
    # the catalog's guess (no config.json read): uploads of one family differ, so the method is judged as
    # read (the TP split check runs) and L23 only warns (vLLM #11601 reached the AWQ layers on 0.6.6)
    model = {"name": "OpenGVLab/InternVL2_5-78B-MPO-AWQ", "quantized": True, "quant_method": "awq",
             "quant_source": "name", "quant_nested": True}
    got = _startup(model, "0.6.6")
    assert got["quant_method"] == "awq" and got["quant_nested_guess"] == "awq"
    assert "quant_nested_unread" not in got
    assert "quant_nested_guess" not in _startup(model, "0.6.6", {"quantization": "awq"})
    assert "quant_nested_guess" not in _startup(model, "0.10.2")


def test_an_upload_known_nested_keeps_the_p0():
    # knowledge/hub_uploads.yaml: the layout a maintainer or a KeyError …qweight showed is not a guess
    table = KB.doc("hub_uploads.yaml").data
    name = "OpenGVLab/InternVL2-Llama3-76B-AWQ"
    got = hub_uploads.apply(_identify(name), hub_uploads.row_for(name, table) or {})
    assert got["quant_nested_known"] is True
    assert _startup(got, "0.6.4")["quant_nested_unread"] == "awq"
    assert hub_uploads.row_for("OpenGVLab/InternVL2_5-78B-MPO-AWQ", table) is None
