"""Gemma 4's two kinds of attention layer in the KV estimate (engine/check/memory/kv.py full_layer_bytes):
sliding layers of head_dim x num_key_value_heads, full-attention layers of global_head_dim x
num_global_key_value_heads (attention_k_eq_v), whose pages vLLM unifies by raising the smaller one's block."""
from __future__ import annotations

import pytest

from vllm_kb.engine.check import memory
from vllm_kb.engine.check.memory.kv import kv_layout
from vllm_kb.engine.check.memory.weights import unquantized_params
from vllm_kb.engine.kb import hardware, knowledge, models
from vllm_kb.engine.kb.model_config import arch_from_config


def facts(name: str, config: dict | None = None) -> dict:
    kb = knowledge.load()
    return models.model_facts(name, kb.models, kb.doc("models.yaml").data.get("quantized_markers", []), config=config)


def test_full_attention_layers_are_sized_at_their_own_width():
    f = facts("google/gemma-4-31B-it")
    assert (f["num_hidden_layers"], f["num_sliding_layers"], f["sliding_window_size"]) == (60, 50, 1024)
    layout = kv_layout(f, {}, 1, 60, memory.runtime("0.21.0"))
    assert layout.per_layer == 2 * 16 * 256 * 2 and layout.full_bytes == 2 * 4 * 512 * 2
    # the full layers' page (8 KiB a token) is half the sliding one's: vLLM doubles their block
    # (kv_cache_utils.py unify_kv_cache_spec_page_size)
    assert (layout.sliding_block, layout.full_block, layout.min_block) == (16, 32, 16)
    assert layout.groups == (1, 5) and layout.page == 16 * 16384
    assert layout.bytes_per_token == 50 * 16384 + 10 * 8192
    # tensor parallelism splits both kinds' KV heads
    assert kv_layout(f, {}, 4, 60, memory.runtime("0.21.0")).full_bytes == 2 * 1 * 512 * 2


@pytest.mark.parametrize("version, logged", [("0.20.0", 55_000), ("0.21.0", 525_000)])
def test_vllm_43308_gemma4_31b_awq_on_an_a100(version, logged):
    # vLLM #43308: cyankiwi/gemma-4-31B-it-AWQ-4bit on an A100 80GB at 0.9, ~50 GB of KV cache memory:
    # "~55k" tokens logged at 0.20.0 (blocks // groups x the smallest block), "~525k" at 0.21.0
    # (concurrency x max_model_len)
    gpu = dict(hardware.parse_spec("A100-80GB", knowledge.load().gpus).gpu)
    e = memory.estimate(facts("cyankiwi/gemma-4-31B-it-AWQ-4bit"), gpu, {"gpu_memory_utilization": 0.9},
                        vllm_version=version)
    assert 48 < e["kv_cache_gib"] < 54
    assert abs(e["kv_tokens"] - logged) / logged < 0.1


def test_a_config_json_gives_the_same_kinds():
    text = {"hidden_size": 2816, "num_hidden_layers": 30, "num_attention_heads": 16, "num_key_value_heads": 8,
            "num_global_key_value_heads": 2, "head_dim": 256, "global_head_dim": 512, "attention_k_eq_v": True,
            "vocab_size": 262144, "sliding_window": 1024, "num_experts": 128, "top_k_experts": 8,
            "moe_intermediate_size": 704, "intermediate_size": 2112,
            "layer_types": (["sliding_attention"] * 5 + ["full_attention"]) * 5}
    arch = arch_from_config({"architectures": ["Gemma4ForConditionalGeneration"], "text_config": text})
    assert arch["attention_k_eq_v"] is True and arch["num_global_key_value_heads"] == 2
    assert arch["num_experts_per_tok"] == 8 and arch["num_sliding_layers"] == 25
    catalog = facts("google/gemma-4-26B-A4B-it")
    for key in ("num_hidden_layers", "num_key_value_heads", "num_global_key_value_heads", "sliding_window_size",
                "num_experts_per_tok", "moe_intermediate_size"):
        assert catalog[key] == arch[key], key
    # without k_eq_v the full layers keep num_key_value_heads (E2B / E4B) at global_head_dim
    plain = dict(catalog, attention_k_eq_v=False)
    assert kv_layout(plain, {}, 1, 30, memory.runtime("0.21.0")).full_bytes == 2 * 8 * 512 * 2


def test_nvidia_31b_nvfp4_keeps_attention_in_bf16():
    # its MLP projections only are NVFP4 (the 32.7 GB upload; "Why not quantize the matrices of Wq, Wk,
    # Wv, Wo?"): robotmunki's H100 log loads 31.18 GiB, every layer at NVFP4 would be 18.3
    f = facts("nvidia/Gemma-4-31B-IT-NVFP4")
    assert f["quant_method"] == "modelopt_fp4" and f["quant_unquantized"] == {"attention": "all"}
    assert f["vision_params_b"] == 0.57  # the tower stays BF16 too (weights.vision_params)
    # 50 sliding blocks at head_dim 256 (q, k, v, o) and 10 full ones at 512 (q, o; k only: attention_k_eq_v)
    h = 5376
    assert unquantized_params(f) == 50 * (2 * h * 32 * 256 + 2 * h * 16 * 256) + 10 * (2 * h * 32 * 512 + h * 4 * 512)
    gpu = dict(hardware.parse_spec("H100", knowledge.load().gpus).gpu)
    e = memory.estimate(f, gpu, {"max_num_batched_tokens": 4096}, vllm_version="0.19.0")
    assert abs(e["weights_per_gpu_gib"] - 31.18) / 31.18 < 0.03
    assert "quant_unquantized" not in facts("nvidia/Qwen3-32B-NVFP4")


@pytest.mark.parametrize("name, heads, kv, experts, top_k", [
    ("google/gemma-4-31B-it", 32, 16, None, None),
    ("google/gemma-4-26B-A4B-it", 16, 8, 128, 8),
])
def test_head_and_expert_counts(name, heads, kv, experts, top_k):
    # what L1 and the expert split read (THUDM/slime's Megatron arguments give the same counts)
    f = facts(name)
    assert (f["num_attention_heads"], f["num_key_value_heads"]) == (heads, kv)
    assert (f.get("num_experts"), f.get("num_experts_per_tok")) == (experts, top_k)
    assert models.tp_divides(f, 8) and not models.tp_divides(f, 3)
