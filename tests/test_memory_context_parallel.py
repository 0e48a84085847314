"""Context parallelism and the KV cache: each rank keeps its share of a request's tokens, and the
start-up check counts that share (AttentionSpec.max_memory_usage_bytes divides max_model_len by the
decode CP size from 0.10.2, by decode x prefill CP in 0.12.0-0.25.x, by decode CP alone from 0.26.0)."""
from __future__ import annotations

import pytest
from vllm_kb.engine.check import memory
from vllm_kb.engine.check.memory.kv import kv_token_shards
from vllm_kb.engine.kb import hardware, knowledge, models

KB = knowledge.load()
MARKERS = KB.doc("models.yaml").data["quantized_markers"]


def est(name: str, spec: str, version: str, **engine) -> dict:
    engine.setdefault("gpu_memory_utilization", 0.9)
    return memory.estimate(models.model_facts(name, KB.models, MARKERS), hardware.parse_spec(spec, KB.gpus).gpu,
                           engine, vllm_version=version)


@pytest.mark.parametrize("version,engine,shards", [
    ("0.10.1", {"decode_context_parallel_size": 8}, 1),  # no DCP before 0.10.2
    ("0.10.2", {"decode_context_parallel_size": 8}, 8),
    ("0.11.1", {"decode_context_parallel_size": "4"}, 4),
    ("0.12.0", {"decode_context_parallel_size": 2, "prefill_context_parallel_size": 2}, 4),
    ("0.25.1", {"prefill_context_parallel_size": 2}, 2),
    ("0.26.0", {"decode_context_parallel_size": 2, "prefill_context_parallel_size": 2}, 2),
    ("0.34.0", {"decode_context_parallel_size": 8}, 8),
    (None, {"decode_context_parallel_size": 8}, 8),
    ("0.11.1", {}, 1),
])
def test_shards_by_release(version, engine, shards):
    assert kv_token_shards(engine, version) == shards


def test_dcp_multiplies_the_logged_tokens():
    # vLLM recipes, Kimi-K2-Thinking on 8 x H200 (a nightly between 0.11.0 and 0.11.1): the same 46.80 GiB
    # of KV cache logs 715,072 tokens at TP 8 and 5,721,088 with DCP 8 ("Multiplying the GPU KV cache
    # size by the dcp_world_size 8")
    tp8 = est("moonshotai/Kimi-K2-Thinking", "H200 x8", "0.11.1", tensor_parallel_size=8)
    dcp8 = est("moonshotai/Kimi-K2-Thinking", "H200 x8", "0.11.1", tensor_parallel_size=8,
               decode_context_parallel_size=8)
    assert dcp8["kv_blocks"] == tp8["kv_blocks"]
    assert dcp8["kv_tokens"] == 8 * tp8["kv_tokens"]
    assert dcp8["max_concurrency"] == pytest.approx(8 * tp8["max_concurrency"], rel=0.01)


def test_dcp_lets_a_long_request_fit():
    # kimi-cli #443: TP 8 + DCP 8 on eight 96 GB RTX PRO 6000 cards at max_model_len 262144 started
    kw = {"tensor_parallel_size": 8, "max_model_len": 262144}
    plain = est("moonshotai/Kimi-K2-Thinking", "RTX PRO 6000 Blackwell x8", "0.11.2", **kw)
    dcp = est("moonshotai/Kimi-K2-Thinking", "RTX PRO 6000 Blackwell x8", "0.11.2", decode_context_parallel_size=8, **kw)
    assert not plain["fits_max_model_len"] and dcp["fits_max_model_len"]
    assert dcp["max_model_len_fit"] >= 262144 > plain["max_model_len_fit"]
