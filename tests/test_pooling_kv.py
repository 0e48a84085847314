"""Pooling models and the KV checks (L15, L16): vLLM skips its KV-capacity check only for a model
with no KV-cache layer — V1's check_enough_kv_cache_memory returns at once when the spec is empty
(encoder-only attention), V0's raise_if_cache_size_invalid skips only attention-free models. A
decoder run for rewards or scores (Qwen2ForProcessRewardModel, LlamaForSequenceClassification, an
LLM converted to embed) keeps its causal attention and its KV cache."""
from __future__ import annotations

from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.startup_task import pooling_keeps_kv


def test_decoder_classes_keep_kv():
    for arch in ("Qwen2ForProcessRewardModel", "Qwen2ForRewardModel", "LlamaForSequenceClassification",
                 "Qwen3ForSequenceClassification", "Qwen2ForCausalLM"):
        assert pooling_keeps_kv({"architecture": arch}, {}), arch


def test_encoder_only_and_unknown_do_not():
    for arch in ("BertModel", "XLMRobertaForSequenceClassification", "ModernBertModel", "Gemma3TextModel", None):
        assert not pooling_keeps_kv({"architecture": arch}, {}), arch
    assert not pooling_keeps_kv({"architecture": "Qwen2ForCausalLM", "is_causal": False}, {})
    assert not pooling_keeps_kv({"architecture": "Qwen2ForCausalLM"}, {"hf_overrides": '{"is_causal": false}'})


def _site(tmp_path, model: str, task: str):
    tmp_path.mkdir(parents=True)
    (tmp_path / "requirements.txt").write_text("vllm==0.10.1\n")
    (tmp_path / "score.py").write_text(f'from vllm import LLM\nllm = LLM(model="{model}", task="{task}")\n')
    (sr,) = audit(tmp_path, gpu="T4").sites
    return sr


def test_a_decoder_reward_model_is_sized(tmp_path):
    # a 7B decoder in bfloat16 does not fit a 16 GB T4: no KV memory, as for the same model generating
    sr = _site(tmp_path / "rm", "Qwen/Qwen2.5-7B-Instruct", "reward")
    r16 = next(r for r in sr.results if r.check.id == "L16")
    assert r16.status != "not_applicable"
    sr = _site(tmp_path / "bge", "BAAI/bge-m3", "embed")
    assert next(r for r in sr.results if r.check.id == "L16").status == "not_applicable"
