"""Hybrid state-space models in the memory estimate (engine/check/memory/ssm.py) and their
config.json layouts (engine/kb/ssm_config.py)."""
from __future__ import annotations

import pytest

from vllm_kb.engine.check import memory
from vllm_kb.engine.check.memory import ssm
from vllm_kb.engine.kb import hardware, knowledge, models
from vllm_kb.engine.kb.model_config import arch_from_config
from vllm_kb.engine.kb.ssm_config import ssm_from_config

KB = knowledge.load()
MARKERS = KB.doc("models.yaml").data.get("quantized_markers", [])


def facts(name: str) -> dict:
    return models.model_facts(name, KB.models, MARKERS)


def estimate(name: str, gpu: str, version: str, **engine) -> dict:
    return memory.estimate(facts(name), dict(hardware.parse_spec(gpu, KB.gpus).gpu), engine, vllm_version=version)


@pytest.mark.parametrize("cfg, attn, layers, kind", [
    # Jamba: an attention layer every 8th, from offset 4
    ({"model_type": "jamba", "num_hidden_layers": 32, "hidden_size": 4096, "attn_layer_period": 8, "attn_layer_offset": 4,
      "mamba_d_state": 16, "mamba_d_conv": 4, "mamba_expand": 2}, 4, 28, "mamba1"),
    # Nemotron-H: M mamba, * attention, - MLP
    ({"model_type": "nemotron_h", "num_hidden_layers": 8, "hidden_size": 1024, "hybrid_override_pattern": "M-M*-M-M",
      "mamba_num_heads": 32, "mamba_head_dim": 64, "n_groups": 8, "ssm_state_size": 128, "conv_kernel": 4}, 1, 4, "mamba2"),
    # Granite 4.0-H: layer_types
    ({"model_type": "granitemoehybrid", "num_hidden_layers": 4, "hidden_size": 1536, "layer_types": ["mamba", "mamba", "attention", "mamba"],
      "mamba_n_heads": 48, "mamba_d_head": 64, "mamba_n_groups": 1, "mamba_d_state": 128, "mamba_d_conv": 4}, 1, 3, "mamba2"),
    # Qwen3-Next: linear_attention / full_attention
    ({"model_type": "qwen3_next", "num_hidden_layers": 8, "hidden_size": 2048, "full_attention_interval": 4,
      "linear_num_key_heads": 16, "linear_num_value_heads": 32, "linear_key_head_dim": 128, "linear_value_head_dim": 128,
      "linear_conv_kernel_dim": 4}, 2, 6, "gdn"),
    # Falcon-H1: attention and a Mamba2 mixer in every layer
    ({"model_type": "falcon_h1", "num_hidden_layers": 6, "hidden_size": 1024, "mamba_n_heads": 16, "mamba_d_head": 64,
      "mamba_d_ssm": 1024, "mamba_n_groups": 1, "mamba_d_state": 128, "mamba_d_conv": 4}, 6, 6, "mamba2"),
])
def test_config_layouts(cfg, attn, layers, kind):
    got = ssm_from_config(cfg)
    assert got["num_attention_layers"] == attn and got["ssm"]["layers"] == layers and got["ssm"]["kind"] == kind


def test_a_plain_transformer_has_no_state():
    cfg = {"model_type": "llama", "num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32}
    assert ssm_from_config(cfg) == {} and "ssm" not in arch_from_config(cfg)


def test_mamba2_state_bytes_follow_the_shape_calculator():
    # Nemotron Nano 9B v2 at TP 1, bf16: conv 3 x (10240 + 2*8*128) x 2 + ssm 128 x 80 x 128 x 2
    f = facts("nvidia/NVIDIA-Nemotron-Nano-9B-v2")
    assert ssm.state_bytes(f, {}, 1, None) == 3 * 12288 * 2 + 128 * 80 * 128 * 2
    # groups that do not divide TP are replicated up to it (extra_groups_for_head_shards)
    g = dict(f, ssm=dict(f["ssm"], groups=1))
    assert ssm.state_bytes(g, {}, 2, None) == 3 * ((10240 + 2 * 2 * 128) // 2) * 2 + 64 * 80 * 128 * 2


@pytest.mark.parametrize("version, block", [("0.10.2", 672), ("0.14.0", 672), ("0.28.0", 1312)])
def test_nemotron_h_attention_block_is_raised_to_hold_a_state(version, block):
    # 672 tokens on 0.10.x (vLLM #24280); from 0.28.0 NemotronH keeps the SSM state in float32 by default
    layout = memory.kv_layout(facts("nvidia/NVIDIA-Nemotron-Nano-9B-v2"), {}, 1, 56, memory.runtime(version))
    assert layout.block == block and (layout.full, layout.ssm) == (4, 27)
    assert layout.group_size == 4 and layout.groups == (1, 0) and layout.ssm_groups == 7


def test_qwen3_next_layout_matches_the_logged_block():
    # vLLM #26646: 90,048 tokens = 84 x 1,072 at TP 2 with an fp8 cache
    layout = memory.kv_layout(facts("Qwen/Qwen3-Next-80B-A3B-Instruct"), {"kv_cache_dtype": "fp8_e5m2", "dtype": "float16"},
                              2, 48, memory.runtime("0.11.0"))
    assert layout.block == 1072 and layout.blocks_per_request(215040, 8192) == 201 + 3


def test_v0_keeps_states_for_max_num_seqs_outside_the_kv_cache():
    e = estimate("nvidia/NVIDIA-Nemotron-Nano-9B-v2", "H100", "0.9.2", max_model_len=32768, max_num_seqs=256)
    assert e["block_size"] == 16 and e["ssm_v0_state_gib"] > 0 and "ssm_pool_blocks" not in e
    # the KV cache holds the 4 attention layers only
    assert e["kv_bytes_per_token_per_gpu"] == 4 * 2 * 8 * 128 * 2


def test_prefix_caching_holds_two_state_blocks_per_request_from_0260():
    f = facts("Qwen/Qwen3.5-27B")
    on = memory.kv_layout(f, {}, 1, 64, memory.runtime("0.28.0"))
    off = memory.kv_layout(f, {"enable_prefix_caching": False}, 1, 64, memory.runtime("0.28.0"))
    before = memory.kv_layout(f, {}, 1, 64, memory.runtime("0.24.0"))
    assert (on.ssm_blocks, off.ssm_blocks, before.ssm_blocks) == (2, 1, 1)


def test_max_num_seqs_above_the_state_blocks_is_refused_from_0200():
    e = estimate("Qwen/Qwen3.5-27B", "H100", "0.28.0", max_model_len=132000, max_num_seqs=1024, gpu_memory_utilization=0.9)
    assert e["ssm_seqs_refused"].startswith("vllm/config/compilation.py:") and e["ssm_seqs_margin"]
    assert e["ssm_max_num_seqs_fit"] < e["ssm_pool_blocks"] < 1024
    # eager mode captures no full graphs; 0.19 only capped the capture sizes
    assert "ssm_seqs_refused" not in estimate("Qwen/Qwen3.5-27B", "H100", "0.28.0", max_model_len=132000, max_num_seqs=1024,
                                              enforce_eager=True)
    assert "ssm_seqs_refused" not in estimate("Qwen/Qwen3.5-27B", "H100", "0.19.0", max_model_len=132000, max_num_seqs=1024)
    assert "ssm_seqs_refused" not in estimate("Qwen/Qwen3.5-27B", "H100", "0.28.0", max_model_len=132000, max_num_seqs=256,
                                              compilation_config={"cudagraph_mode": "PIECEWISE"})
    # the refusal reads the mode after the spec-decode downgrade (config/compilation.py, the same function):
    # an MTP draft with an fp8 cache on an A100 runs FlashInfer, PIECEWISE only; on an H100 FA3 keeps FULL
    mtp = {"method": "mtp", "num_speculative_tokens": 1}
    assert "ssm_seqs_refused" not in estimate("Qwen/Qwen3.5-27B", "A100-80GB", "0.28.0", max_model_len=132000,
                                              max_num_seqs=1024, kv_cache_dtype="fp8", speculative_config=mtp)
    assert "ssm_seqs_refused" in estimate("Qwen/Qwen3.5-27B", "H100", "0.28.0", max_model_len=132000,
                                          max_num_seqs=1024, kv_cache_dtype="fp8", speculative_config=mtp)


def test_an_unknown_max_num_seqs_is_not_guessed_into_a_refusal():
    # the default is the usage context's (128 for EngineArgs(), 256 or 1024 for serve and LLM()),
    # and a framework's own engine has none read here: about 190 blocks refuse 256 sequences, not 128
    assert "ssm_seqs_refused" not in estimate("Qwen/Qwen3.5-27B", "H100", "0.28.0", max_model_len=132000,
                                              gpu_memory_utilization=0.8)
    assert estimate("Qwen/Qwen3.5-27B", "H100", "0.28.0", max_model_len=132000, gpu_memory_utilization=0.8,
                    max_num_seqs=256)["ssm_seqs_margin"]


def test_sizing_table_rows():
    assert ssm.sizing_row("0.9.2")["block_raise"] is None
    assert ssm.sizing_row("0.10.0")["block_raise"].startswith("vllm/model_executor/models/config.py:")
    assert ssm.sizing_row("0.20.0")["seqs_refusal"] and not ssm.sizing_row("0.19.1")["seqs_refusal"]
    assert ssm.sizing_row("0.28.0")["ssm_dtype"]["NemotronHForCausalLM"]["default"] == "float32"


def test_align_mode_block_above_the_batch_budget_is_refused_in_0170_to_0260():
    # Nemotron Nano 9B v2 from 0.20: a 1,312-token block (float32 state); align mode needs prefix caching
    on = estimate("nvidia/NVIDIA-Nemotron-Nano-9B-v2", "H100", "0.20.0", max_model_len=32768, max_num_batched_tokens=1024,
                  enable_prefix_caching=True)
    assert on["ssm_align_refused"].startswith("vllm/config/vllm.py:") and on["ssm_align_batched_fit"] == 2048
    # prefix caching off by default before 0.26.0; fits at 2048; "all" mode; gone in 0.27.0
    for version, extra in (("0.20.0", {}), ("0.20.0", {"enable_prefix_caching": True, "max_num_batched_tokens": 2048}),
                           ("0.20.0", {"enable_prefix_caching": True, "mamba_cache_mode": "all"}),
                           ("0.27.0", {"enable_prefix_caching": True})):
        engine = dict({"max_model_len": 32768, "max_num_batched_tokens": 1024}, **extra)
        assert "ssm_align_refused" not in estimate("nvidia/NVIDIA-Nemotron-Nano-9B-v2", "H100", version, **engine), (version, extra)
    # 0.26.0 turns prefix caching on for hybrids by default
    assert "ssm_align_refused" in estimate("nvidia/NVIDIA-Nemotron-Nano-9B-v2", "H100", "0.26.0", max_model_len=32768,
                                           max_num_batched_tokens=1024)


@pytest.mark.parametrize("name, tp, block", [
    # vLLM #36734 (0.17.1, TP 2): "block_size (2096) must be <= max_num_batched_tokens (2048)" — a quantized
    # upload of the 122B-A10B keeps its shapes; one KV head per rank holds a 64-head float32 state
    ("Qwen/Qwen3.5-122B-A10B-GPTQ-Int4", 2, 2096),
    ("Qwen/Qwen3.6-27B", 1, 784),  # Qwen3.6 keeps Qwen3.5-27B's shapes (the logged H20 row's block)
])
def test_qwen35_sizes_raise_the_block_their_logs_print(name, tp, block):
    f = facts(name)
    assert f["ssm"]["kind"] == "gdn" and f["architecture"].startswith("Qwen3_5")
    e = estimate(name, "L20 x2" if tp == 2 else "H200", "0.17.1", tensor_parallel_size=tp, max_model_len=131072,
                 max_num_batched_tokens=2048, enable_prefix_caching=True)
    assert e["block_size"] == block
    assert ("ssm_align_refused" in e) is (block > 2048)


def test_an_mtp_draft_adds_an_attention_layer_and_a_state_page_per_draft_token():
    # heldout73 (club-3090 PR 594 / issue 642, 0.24.0, Qwen3.6-27B TP2, FP8 KV, prefix caching, MTP 3): the logs'
    # tokens per GiB need 183 blocks of 1568 tokens a request at 262,144, not 174
    f = facts("Qwen/Qwen3.6-27B-FP8")
    base_engine = {"enable_prefix_caching": True, "kv_cache_dtype": "fp8"}
    spec = {"method": "mtp", "num_speculative_tokens": 3}
    rt = memory.runtime("0.24.0")
    base = memory.kv_layout(f, base_engine, 2, 64, rt)
    mtp = memory.kv_layout(f, dict(base_engine, speculative_config=spec), 2, 64, rt)
    assert (base.full, base.ssm_blocks, base.group_size, base.block) == (16, 2, 16, 1568)
    assert (mtp.full, mtp.ssm_blocks, mtp.group_size, mtp.ssm_groups) == (17, 5, 17, 3)
    assert mtp.blocks_per_request(262144, 8192) == 168 + 3 * 5
    # a JSON string as on the command line; before 0.15.0 MambaSpec kept no page per draft token
    assert memory.kv_layout(f, dict(base_engine, speculative_config='{"method": "mtp", "num_speculative_tokens": 3}'),
                            2, 64, rt).ssm_blocks == 5
    assert memory.kv_layout(f, dict(base_engine, speculative_config=spec), 2, 64, memory.runtime("0.14.1")).ssm_blocks == 1
    # an n-gram draft adds no layer
    assert memory.kv_layout(f, dict(base_engine, speculative_config={"method": "ngram", "num_speculative_tokens": 3}),
                            2, 64, rt).full == 16
