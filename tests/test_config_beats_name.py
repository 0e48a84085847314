"""A checkpoint's own config.json against a catalog match on its folder's name (vllm#15457): a local
folder named DeepSeek-R1-32B-FULL that holds a 32B Qwen2 config is sized from that config, not as
the 671B DeepSeek-R1 its name contains; the name alone, or a Hub id, still matches the catalog."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb import knowledge, models

KB = knowledge.load()
DATA = KB.doc("models.yaml").data

QWEN2_32B = {
    "architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2", "hidden_size": 5120, "intermediate_size": 27648,
    "num_hidden_layers": 64, "num_attention_heads": 40, "num_key_value_heads": 8, "max_position_embeddings": 131072,
    "vocab_size": 152064, "tie_word_embeddings": False, "torch_dtype": "bfloat16",
}


def facts(name: str, config: dict | None = None) -> dict:
    return models.model_facts(name, KB.models, DATA["quantized_markers"], config=config, version="0.7.2",
                              publishers=DATA.get("publishers"), identity=DATA)


def test_a_config_of_another_class_voids_the_name_match():
    f = facts("DeepSeek-R1-32B-FULL", QWEN2_32B)
    assert "family" not in f and f["architecture"] == "Qwen2ForCausalLM"
    assert f["params_b"] == pytest.approx(32.76, rel=0.01)
    assert not f["moe"] and not f["mla"] and not f["quantized"] and "quant_method" not in f
    assert f["num_key_value_heads"] == 8 and "kv_lora_rank" not in f


def test_the_name_alone_and_a_hub_id_still_match():
    f = facts("deepseek-ai/DeepSeek-R1")
    assert f["family"] == "deepseek-v3" and f["params_b"] == 671 and f["quant_method"] == "fp8"
    # a name whose own size rules the family's one model out is sized by that size, not as the 671B model
    f = facts("DeepSeek-R1-32B-FULL")
    assert "family" not in f and f["params_b"] == 32.0 and "quant_method" not in f


def test_a_config_of_the_family_keeps_it_and_its_own_quantization():
    v3 = {"architectures": ["DeepseekV3ForCausalLM"], "model_type": "deepseek_v3", "torch_dtype": "bfloat16"}
    f = facts("./DeepSeek-R1", v3)  # a BF16 conversion: no quantization_config
    assert f["family"] == "deepseek-v3" and f["params_b"] == 671
    assert f["quantized"] is False and "quant_method" not in f and "quant_block" not in f


def test_a_size_in_the_name_gives_way_to_the_configs_dims():
    seven = {"architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2", "hidden_size": 3584,
             "intermediate_size": 18944, "num_hidden_layers": 28, "num_attention_heads": 28, "num_key_value_heads": 4,
             "vocab_size": 152064, "max_position_embeddings": 32768, "torch_dtype": "bfloat16"}
    f = facts("./Qwen2.5-72B-Instruct", seven)
    assert f["family"].startswith("qwen2") and f["params_b"] == pytest.approx(7.6, rel=0.02)


def _project(tmp_path: Path, folder: str | None) -> Path:
    (tmp_path / "serve.sh").write_text("#!/bin/sh\n" + textwrap.dedent(
        "vllm serve DeepSeek-R1-32B-FULL --tensor-parallel-size 4 --max-model-len 32768\n"))
    (tmp_path / "requirements.txt").write_text("vllm==0.7.2\n")
    if folder:
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "config.json").write_text(json.dumps(QWEN2_32B))
    return tmp_path


def _p0(rep) -> set[str]:
    return {r.check.id for sr in rep.sites for r in sr.results if r.status == "recommended" and r.priority == "P0"}


def test_audit_sizes_the_local_folder_from_its_config(tmp_path):
    assert "L16" not in _p0(audit(_project(tmp_path, "DeepSeek-R1-32B-FULL"), gpu="RTX-4090 x4"))


def test_audit_without_the_folder_gives_no_false_p0_either(tmp_path):
    # the name's 32B contradicts the catalog's 671B DeepSeek-R1: no family, no "does not fit"
    assert "L16" not in _p0(audit(_project(tmp_path, None), gpu="RTX-4090 x4"))


def test_a_family_whose_class_is_only_a_sizes_keeps_its_other_models():
    # Moonlight-16B-A3B (DeepseekV3ForCausalLM) matches the Kimi-VL family; only its VL size names a class
    moon = {"architectures": ["DeepseekV3ForCausalLM"], "model_type": "deepseek_v3", "torch_dtype": "bfloat16"}
    assert facts("./models/Moonlight-16B-A3B-Instruct", moon)["family"] == "kimi-vl"
    assert "family" not in facts("./models/Kimi-VL-A3B-Instruct", dict(moon, architectures=["Qwen2ForCausalLM"], model_type="qwen2"))
