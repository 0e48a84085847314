"""MLA as each vLLM release decides it (engine/kb/mla.py, knowledge/vllm/mla_types.yaml): the model
types ModelConfig.is_deepseek_mla lists, not any config with kv_lora_rank."""
from __future__ import annotations

import pytest

from vllm_kb.engine.check.memory.kv import kv_bytes_per_token_layer
from vllm_kb.engine.check.memory.runtime import runtime
from vllm_kb.engine.kb.knowledge import load
from vllm_kb.engine.kb.mla import mla_at, release_types
from vllm_kb.engine.kb.models import model_facts

DS = {"kv_lora_rank": 512, "qk_rope_head_dim": 64, "qk_nope_head_dim": 128, "num_attention_heads": 64}


@pytest.fixture(scope="module")
def table() -> dict:
    return load().doc("vllm", "mla_types.yaml").data


@pytest.mark.parametrize("mtype,version,mla", [
    ("deepseek_v3", "0.6.6", False),    # no MLA in vLLM before 0.7.1
    ("deepseek_v3", "0.7.1", True),
    ("deepseek_mtp", "0.7.2", False),   # 0.7.3 adds it
    ("kimi_k2", "0.9.2", False),        # vllm/config.py 0.10.0 adds kimi_k2
    ("kimi_k2", "0.10.0", True),
    ("glm4_moe_lite", "0.14.1", False),
    ("glm4_moe_lite", "0.15.0", True),
    ("minicpm3", "0.11.0", False),      # never listed: MiniCPM3 runs plain attention
])
def test_release_decides(table, mtype, version, mla):
    got = mla_at({**DS, "model_type": mtype, "mla": True}, version, table)
    assert got["mla"] is mla and got["mla_release"] is mla


def test_text_config_type_and_unknowns(table):
    # Kimi-VL: kimi_vl outside, deepseek_v3 in text_config, which vLLM's hf_text_config reads
    facts = model_facts("moonshotai/Kimi-VL-A3B-Instruct", [], [], config={
        "model_type": "kimi_vl", "architectures": ["KimiVLForConditionalGeneration"],
        "text_config": {"model_type": "deepseek_v3", **DS, "hidden_size": 2048, "num_hidden_layers": 27}})
    assert facts["text_model_type"] == "deepseek_v3"
    assert mla_at(facts, "0.10.0", table)["mla_release"] is True
    # no model type read, an unknown release: left as it is
    assert "mla_release" not in mla_at({**DS, "mla": True}, "0.10.0", table)
    assert "mla_release" not in mla_at({**DS, "model_type": "minicpm3", "mla": True}, None, table)
    assert release_types(table, "0.35.0") is None


def test_transformers_backend_from_0280(table):
    m = {**DS, "model_type": "sarvam_mla", "architecture": "SarvamMLAForCausalLM", "mla": True}
    # from 0.28.0 an architecture vLLM does not register may run on the Transformers backend: MLA by kv_lora_rank
    assert "mla_release" not in mla_at(m, "0.28.0", table, lambda a, v: False)
    assert mla_at(m, "0.28.0", table, lambda a, v: True)["mla"] is False
    assert mla_at(m, "0.27.1", table, lambda a, v: False)["mla"] is False


def test_kv_cache_per_head_where_not_mla(table):
    rt = runtime("0.9.2")
    latent = kv_bytes_per_token_layer({**DS, "model_type": "deepseek_v3"}, {}, 8, rt)
    plain = kv_bytes_per_token_layer(mla_at({**DS, "model_type": "kimi_k2"}, "0.9.2", table), {}, 8, rt)
    assert latent == (512 + 64) * 2
    assert plain == 2 * (64 // 8) * 192 * 2



def test_bidirectional_variant_from_0290(table):
    m = {**DS, "model_type": "deepseek_v3", "is_causal": False, "mla": True}
    native = lambda a, v: True  # noqa: E731 - vLLM's own DeepseekV3 class, not the Transformers backend
    m["architecture"] = "DeepseekV3ForCausalLM"
    assert mla_at(m, "0.28.0", table, native)["mla"] is True and mla_at(m, "0.29.0", table, native)["mla"] is False


def test_multimodal_wrapper_known_by_outer_type_is_left_alone(table):
    # Kimi-K2.5 in the catalog: kimi_k25 outside, deepseek_v3 in its text config (which vLLM asks);
    # heldout46 control--vllm-36207 drew a false L15 P0 when kimi_k25 was judged against the list
    outer = {**DS, "model_type": "kimi_k25", "architecture": "KimiK25ForConditionalGeneration", "mla": True}
    assert "mla_release" not in mla_at(outer, "0.15.0", table)
    read = {**outer, "text_model_type": "deepseek_v3"}
    assert mla_at(read, "0.15.0", table)["mla_release"] is True
