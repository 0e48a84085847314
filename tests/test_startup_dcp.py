"""Decode context parallelism against the model's KV heads (engine/check/startup_dcp.py, check L191):
vLLM 0.11.1+ wants TP above the KV heads, DCP at most TP // KV heads and the query heads per KV
head divisible by DCP, on models without MLA."""
from __future__ import annotations

from vllm_kb.engine.check.startup_dcp import dcp_facts

QWEN3_235B = {"mla": False, "num_attention_heads": 64, "num_key_value_heads": 4}


def test_tp_not_above_the_kv_heads_turns_dcp_off():
    # vllm#41623: Qwen3-235B-A22B-FP8 at TP 4 with DCP 4
    got = dcp_facts(QWEN3_235B, {"tensor_parallel_size": 4, "decode_context_parallel_size": 4})
    assert got == {"dcp": 4, "dcp_kv_heads": 4, "dcp_q_per_kv": 16, "dcp_max": 1, "dcp_ok": False,
                   "dcp_refused": "tp", "dcp_fit": 1}


def test_dcp_above_tp_over_kv_heads_names_the_largest_that_fits():
    got = dcp_facts(QWEN3_235B, {"tensor_parallel_size": 8, "decode_context_parallel_size": 4})
    assert (got["dcp_refused"], got["dcp_max"], got["dcp_fit"]) == ("max", 2, 2)
    assert dcp_facts(QWEN3_235B, {"tensor_parallel_size": 8, "decode_context_parallel_size": 2})["dcp_ok"] is True


def test_query_heads_per_kv_head_must_divide_by_dcp():
    # PR #49777's reproducer: 6 query heads over 2 KV heads, TP 6, DCP 2 (3 per KV head)
    got = dcp_facts({"num_attention_heads": 6, "num_key_value_heads": 2},
                    {"tensor_parallel_size": 6, "decode_context_parallel_size": 2})
    assert (got["dcp_refused"], got["dcp_fit"]) == ("q", 1)


def test_not_judged_for_mla_unknown_heads_unread_tp_or_no_dcp():
    engine = {"tensor_parallel_size": 4, "decode_context_parallel_size": 4}
    assert dcp_facts({"mla": True, "num_attention_heads": 16, "num_key_value_heads": 16}, engine) == {}
    assert dcp_facts({"kv_lora_rank": 512, "num_key_value_heads": 128, "num_attention_heads": 128}, engine) == {}
    assert dcp_facts({"name": "my-org/private"}, engine) == {}
    assert dcp_facts(QWEN3_235B, {"tensor_parallel_size": "$TP", "decode_context_parallel_size": 4}) == {}
    assert dcp_facts(QWEN3_235B, {"tensor_parallel_size": 4, "decode_context_parallel_size": 1}) == {}
    assert dcp_facts(QWEN3_235B, {"tensor_parallel_size": 4}) == {}
