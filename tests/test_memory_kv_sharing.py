"""Layers that read an earlier layer's KV cache (Gemma 3n's num_kv_shared_layers) allocate none."""
from __future__ import annotations

from vllm_kb.engine.check import memory
from vllm_kb.engine.check.memory.kv import kv_layer_count
from vllm_kb.engine.kb import hardware, knowledge, models


def facts(name: str, config: dict | None = None) -> dict:
    kb = knowledge.load()
    return models.model_facts(name, kb.models, kb.doc("models.yaml").data.get("quantized_markers", []), config=config)


def est(name: str, version: str = "0.11.0", **engine) -> dict:
    gpu = dict(hardware.parse_spec("L4", knowledge.load().gpus).gpu)
    return memory.estimate(facts(name), gpu, {"gpu_memory_utilization": 0.9, "max_model_len": 32768, **engine},
                           vllm_version=version)


def test_gemma_3n_caches_twenty_layers_sixteen_local_four_global():
    # vLLM's gemma3n.py points each of the last num_kv_shared_layers at an earlier layer
    # (kv_sharing_target_layer_name) and get_kv_cache_spec gives it no cache: 35 - 15 and 30 - 10
    for name, layers in (("google/gemma-3n-E4B-it", 35), ("google/gemma-3n-E2B-it", 30)):
        f = facts(name)
        assert f["num_hidden_layers"] == layers and kv_layer_count(f) == 20
        e = est(name)
        assert e["kv_bytes_per_token"] == 20 * 2 * 2 * 256 * 2  # 20 layers x K,V x 2 heads x 256 x bf16
        assert e["kv_groups"] == 5  # 4 global layers in one group, 16 local ones in four
    assert kv_layer_count({"num_hidden_layers": 32}) == 32


def test_kv_sharing_read_from_a_config_json():
    text = {"model_type": "gemma3n_text", "num_hidden_layers": 35, "num_kv_shared_layers": 15, "hidden_size": 2048,
            "num_attention_heads": 8, "num_key_value_heads": 2, "head_dim": 256, "sliding_window": 512,
            "layer_types": (["sliding_attention"] * 4 + ["full_attention"]) * 7}
    f = facts("me/my-gemma", config={"architectures": ["Gemma3nForConditionalGeneration"], "text_config": text})
    assert f.get("num_kv_shared_layers") == 15 and kv_layer_count(f) == 20
