"""--disable-sliding-window caps the derived max_model_len to the checkpoint's own window from vLLM
0.4.3 (knowledge/vllm/startup.yaml lengths.window_flag_capped; _get_and_verify_max_len)."""
from __future__ import annotations

from vllm_kb.engine.check.startup_lengths import window_capped
from vllm_kb.engine.kb.knowledge import load
from vllm_kb.engine.kb.models import model_facts

KB = load()
TABLE = KB.doc("vllm", "startup.yaml").data


def _model(name: str) -> dict:
    return model_facts(name, KB.models, KB.doc("models.yaml").data.get("quantized_markers", []))


def test_the_flag_caps_the_context_at_the_window():
    m = _model("mistralai/Mistral-7B-v0.1")
    capped = window_capped(m, TABLE, "0.5.1", flag_off=True)
    assert (capped["max_context"], capped["max_len_key"]) == (4096, "sliding_window")
    assert window_capped(m, TABLE, "0.5.1") is m  # the window stays on: the model's own context
    assert window_capped(m, TABLE, "0.4.2", flag_off=True) is m  # no --disable-sliding-window before 0.4.3
    gemma = window_capped(_model("google/gemma-3-27b-it"), TABLE, "0.10.0", flag_off=True)
    assert gemma["max_context"] == 1024


def test_a_model_without_a_window_keeps_its_context():
    m = _model("Qwen/Qwen2.5-7B-Instruct")  # config sliding_window with use_sliding_window false
    assert window_capped(m, TABLE, "0.10.0", flag_off=True) is m
