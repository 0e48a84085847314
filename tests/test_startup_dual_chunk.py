"""L167's facts: a dual-chunk-attention checkpoint (Qwen2.5-*-1M) against the attention backend a
release builds it with (engine/check/startup_dual_chunk.py, knowledge/vllm/dual_chunk.yaml)."""
from __future__ import annotations

import pytest

from vllm_kb.engine.check.startup_dual_chunk import dual_chunk_facts
from vllm_kb.engine.kb.knowledge import load
from vllm_kb.engine.kb.model_config import config_scalars

DCA = {"dual_chunk_attention": True}
A100, T4 = {"compute_capability": 8.0}, {"compute_capability": 7.5}
BF16 = {"dtype": "bfloat16"}


@pytest.fixture(scope="module")
def table():
    return load().doc("vllm", "dual_chunk.yaml").data


@pytest.mark.parametrize("version, arch, startup, gpu, env, refused", [
    ("0.9.2", "Qwen2ForCausalLM", {**BF16, "attn_backend": "FLASH_ATTN"}, A100, {}, True),
    ("0.9.2", "Qwen2ForCausalLM", {**BF16, "backend": "DUAL_CHUNK_FLASH_ATTN"}, A100, {}, False),  # V0 fallback
    ("0.9.2", "Qwen2ForCausalLM", {**BF16, "backend": "DUAL_CHUNK_FLASH_ATTN"}, A100, {"VLLM_USE_V1": "1"}, None),
    ("0.10.1.1", "Qwen2ForCausalLM", BF16, T4, {}, True),  # no V1 backend takes the keywords before 0.10.2
    ("0.10.2", "Qwen2ForCausalLM", {**BF16, "attn_backend": "FLEX_ATTENTION"}, T4, {}, False),  # **kwargs
    ("0.13.0", "Qwen2ForCausalLM", BF16, A100, {}, True),  # the validating selector: FlashAttention first
    ("0.13.0", "Qwen2ForCausalLM", BF16, {}, {}, None),  # GPU not known
    ("0.34.0", "Qwen2ForCausalLM", {**BF16, "backend": "FLEX_ATTENTION"}, A100, {}, False),
    ("0.9.2", "Qwen3ForCausalLM", BF16, A100, {}, None),  # Qwen3 reads the config from 0.10.1
    ("0.8.5", "Qwen2ForCausalLM", BF16, A100, {}, None),  # before 0.9.0 the config is not read
])
def test_refused(table, version, arch, startup, gpu, env, refused):
    got = dual_chunk_facts(DCA, arch, table, version, startup, gpu, env)
    assert got.get("dual_chunk_refused") is refused


def test_plain_checkpoint(table):
    assert dual_chunk_facts({}, "Qwen2ForCausalLM", table, "0.13.0", BF16, A100, {}) == {}


def test_config_json_says_it():
    facts: dict = {"dual_chunk_attention": True}
    config_scalars(facts, {"architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2"}, None)
    assert "dual_chunk_attention" not in facts  # the checkpoint's own config wins over the name
    config_scalars(facts, {"architectures": ["Qwen2ForCausalLM"], "dual_chunk_attention_config": {"chunk_size": 262144}}, None)
    assert facts["dual_chunk_attention"] is True
