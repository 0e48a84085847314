"""BitsAndBytes checkpoints against the release (engine/check/startup_quant.py): a name that says
bitsandbytes is taken as certain, a bare "4bit" only before any release had BitsAndBytes; a
quantization_config without quant_method (transformers' older BitsAndBytes format) raises up to
0.10; the pin that makes the method known skips the releases that cannot read a saved checkpoint."""
from __future__ import annotations

from vllm_kb.engine.check.startup_quant import quant_facts
from vllm_kb.engine.kb import catalog as catalog_mod
from vllm_kb.engine.kb import knowledge
from vllm_kb.engine.kb.model_config import config_scalars

KB = knowledge.load()
OLD_BNB = {"bnb_4bit_compute_dtype": "bfloat16", "bnb_4bit_quant_type": "nf4", "load_in_4bit": True, "load_in_8bit": False}


def _startup(model: dict, version: str, engine: dict | None = None) -> dict:
    facts = {"model": model, "engine": engine or {}, "args": dict(engine or {}), "gpu": {}}
    return quant_facts(facts, KB.doc("vllm", "startup.yaml").data, catalog_mod.load(), version)


def _named(name: str) -> dict:
    return {"name": name, "quantized": True, "quant_method": "bitsandbytes", "quant_source": "name"}


def test_a_bnb_name_is_certain_a_bare_4bit_only_before_bitsandbytes():
    assert _startup(_named("unsloth/llama-3-8b-bnb-4bit"), "0.4.1")["quant_certain"] is True
    old = _startup(_named("baichuan-inc/Baichuan2-13B-Chat-4bits"), "0.2.2")
    assert old["quant_certain"] is True and old["quant_known"] is False
    # from 0.5.0 a bare "4bit" may be anything vLLM loads; MLX uploads are never bitsandbytes
    assert _startup(_named("someone/Model-7B-4bit"), "0.6.3")["quant_certain"] is False
    assert _startup(_named("mlx-community/Model-7B-4bit"), "0.4.1")["quant_certain"] is False


def test_pin_for_a_saved_checkpoint_starts_where_it_loads():
    got = _startup(_named("unsloth/llama-3-8b-bnb-4bit"), "0.4.1")
    assert got["quant_known_pin"] == ">=0.5.4,<=0.27.1"
    # the argument (in-flight) is known from 0.5.0
    flag = _startup({"name": "meta-llama/Llama-2-7b-hf", "quantized": False}, "0.4.1", {"quantization": "bitsandbytes"})
    assert flag["quant_known"] is False and flag["quant_known_first"] == "0.5.0"


def test_old_bnb_config_without_quant_method():
    facts: dict = {}
    config_scalars(facts, {"architectures": ["BaichuanForCausalLM"], "quantization_config": OLD_BNB}, None)
    assert facts["quant_method"] == "bitsandbytes" and facts["quant_source"] == "config"
    assert facts["quant_method_key"] is False
    model = {"name": "/models/baichuan2-4bits", **facts}
    for version in ("0.2.2", "0.4.1", "0.10.2"):
        assert _startup(model, version).get("quant_unnamed") is True, version
    # 0.11 takes an empty method as no quantization; before 0.2.2 the config is not read
    assert "quant_unnamed" not in _startup(model, "0.11.0")
    assert "quant_unnamed" not in _startup(model, "0.2.1")
    plain: dict = {}
    config_scalars(plain, {"quantization_config": {**OLD_BNB, "quant_method": "bitsandbytes"}}, None)
    assert "quant_method_key" not in plain
