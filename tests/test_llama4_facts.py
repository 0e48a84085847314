"""Llama 4's shapes as the sizing needs them: MoE in every layer (Scout) or every other one
(Maverick, dense MLPs between), one shared expert, and 3 of 4 layers attending within 8192-token
chunks, which vLLM keeps to their chunk only where its hybrid KV-cache manager runs them
(0.10.0, then from 0.14.0 by default; VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE)."""
from __future__ import annotations

import pytest
from vllm_kb.engine.check import memory
from vllm_kb.engine.kb import hardware, knowledge, models
from vllm_kb.engine.kb.model_arith import moe_layers, params_from_arch
from vllm_kb.engine.scan.deploy.skypilot import accelerators

KB = knowledge.load()
MARKERS = KB.doc("models.yaml").data["quantized_markers"]
H100 = hardware.parse_spec("H100-80GB x8", KB.gpus).gpu


def facts(name: str, config: dict | None = None) -> dict:
    return models.model_facts(name, KB.models, MARKERS, config=config)


def test_catalog_shapes_add_up_to_the_published_sizes():
    scout, maverick = facts("meta-llama/Llama-4-Scout-17B-16E-Instruct"), facts("meta-llama/Llama-4-Maverick-17B-128E-Instruct")
    assert moe_layers(scout) == 48 and moe_layers(maverick) == 24
    assert scout["num_chunked_layers"] == maverick["num_chunked_layers"] == 36
    for f, total in ((scout, 109), (maverick, 400)):
        got, active = params_from_arch(f)
        assert abs(got - total) / total < 0.02  # the vision encoder (~0.7B) is not in the dims
        assert abs(active - 17) < 0.5


def test_config_json_reads_the_dense_width_and_the_chunks():
    text = {"model_type": "llama4_text", "num_hidden_layers": 48, "hidden_size": 5120, "num_attention_heads": 40,
            "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 202048, "intermediate_size": 8192,
            "intermediate_size_mlp": 16384, "num_local_experts": 128, "num_experts_per_tok": 1,
            "interleave_moe_layer_step": 2, "attention_chunk_size": 8192, "no_rope_layers": []}
    f = facts("./ckpt/my-model", {"model_type": "llama4", "architectures": ["Llama4ForConditionalGeneration"],
                                  "text_config": text})
    assert (f["intermediate_size"], f["moe_intermediate_size"], f["n_shared_experts"]) == (16384, 8192, 1)
    assert f["num_chunked_layers"] == 36 and moe_layers(f) == 24
    listed = dict(text, no_rope_layers=[int((i + 1) % 4 != 0) for i in range(48)])
    assert facts("./ckpt/x", {"model_type": "llama4", "text_config": listed})["num_chunked_layers"] == 36


@pytest.mark.parametrize("version,env,kept_to_chunk", [
    ("0.9.2", {}, False),   # before ChunkedLocalAttentionSpec: every token in every layer
    ("0.10.0", {}, True),
    ("0.11.0", {}, False),  # hybrid manager off for chunked attention by default (latency regression)
    ("0.11.0", {"VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE": "1"}, True),
    ("0.14.0", {}, True),
    ("0.34.0", {"VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE": "0"}, False),
])
def test_chunked_layers_by_release(version, env, kept_to_chunk):
    model = facts("meta-llama/Llama-4-Scout-17B-16E-Instruct")
    engine = {"tensor_parallel_size": 8, "max_model_len": 1_000_000}
    est = memory.estimate(model, H100, engine, version, env)
    assert est["kv_bytes_per_token_per_gpu"] == 48 * 2 * 1 * 128 * 2
    every_token = memory.estimate(model, H100, {**engine, "disable_hybrid_kv_cache_manager": True}, version, env)
    if kept_to_chunk:  # 12 global layers of 48 keep the whole request: about 4x the requests
        assert est["max_concurrency"] > 3 * every_token["max_concurrency"]
    else:
        assert est["max_concurrency"] == every_token["max_concurrency"]


def test_eagle_keeps_every_token():
    model = facts("meta-llama/Llama-4-Scout-17B-16E-Instruct")
    engine = {"tensor_parallel_size": 8, "max_model_len": 1_000_000,
              "speculative_config": {"method": "eagle", "model": "x"}}
    est = memory.estimate(model, H100, engine, "0.20.0")
    plain = memory.estimate(model, H100, {k: v for k, v in engine.items() if k != "speculative_config"}, "0.20.0")
    assert plain["max_concurrency"] > 3 * est["max_concurrency"]


def test_maverick_fp8_fits_eight_h100():
    model = facts("meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8")
    est = memory.estimate(model, H100, {"tensor_parallel_size": 8, "max_model_len": 430_000}, "0.8.3")
    assert 44 < est["weights_per_gpu_gib"] < 50 and est["fits_max_model_len"]


def test_skypilot_accelerator_set_keeps_its_count():
    # `{H100:8, H200:8}`: YAML reads the entries as keys with null values
    assert accelerators({"accelerators": {"H100:8": None, "H200:8": None}}) == (8, ["H100", "H200"])
    assert accelerators({"accelerators": {"L4": 1, "A10G": 1}}) == (1, ["L4", "A10G"])
