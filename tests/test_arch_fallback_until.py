"""transformers_fallback false with an end: a remote class the Transformers-backend gate refuses only
up to the release where the gate changes (Baichuan-M1: neither _supports_flex_attn nor
_supports_attention_backend, refused through 0.29.0; 0.30.0 also takes a class whose attention
implementation can be set)."""
from vllm_kb.engine.check.startup_arch import arch_facts
from vllm_kb.engine.kb import knowledge, models

KB = knowledge.load()
ARCHS = KB.doc("vllm", "architectures.yaml").data


def _facts(version: str) -> dict:
    mf = models.model_facts("baichuan-inc/Baichuan-M1-14B-Instruct", KB.models, KB.doc("models.yaml").data["quantized_markers"])
    return arch_facts(mf, ARCHS, version)


def test_refused_while_the_gate_holds():
    got = _facts("0.8.2")
    assert got["arch"] == "BaichuanM1ForCausalLM" and got["arch_registered"] is False
    assert got["arch_fallback"] == "none" and got["arch_fallback_refused"]
    assert _facts("0.29.0")["arch_fallback"] == "none"


def test_not_claimed_once_the_gate_changes():
    assert _facts("0.30.0")["arch_fallback"] != "none"
