"""model.encoder_decoder from config.json's is_encoder_decoder (engine/kb/model_config.py), which L252 reads."""
from __future__ import annotations

from vllm_kb.engine.kb.models import model_facts


def test_encoder_decoder_fact():
    # L252: from 0.11.1 SchedulerConfig zeroes an encoder-decoder model's long_prefill_token_threshold
    whisper = model_facts("openai/whisper-large-v3", [], [], config={
        "model_type": "whisper", "architectures": ["WhisperForConditionalGeneration"], "is_encoder_decoder": True})
    assert whisper.get("encoder_decoder") is True
    assert "encoder_decoder" not in model_facts("x/llama", [], [], config={"model_type": "llama", "architectures": ["LlamaForCausalLM"]})
