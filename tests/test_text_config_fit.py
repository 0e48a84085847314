"""L281 checkpoint-config-format: a Qwen2-VL/2.5-VL config.json that nests text_config (transformers 4.52+)
read by a transformers pin older than the config class that takes it (engine/check/transformers_fit.py)."""
from __future__ import annotations

import json

import pytest

from vllm_kb.engine.audit import audit

_TEXT = {"hidden_size": 3584, "intermediate_size": 18944, "num_attention_heads": 28, "num_hidden_layers": 28,
         "num_key_value_heads": 4, "max_position_embeddings": 128000, "vocab_size": 152064}


def _config(nested: bool, model_type: str = "qwen2_5_vl") -> dict:
    arch = "Qwen2_5_VLForConditionalGeneration" if model_type == "qwen2_5_vl" else "Qwen2VLForConditionalGeneration"
    out = {"architectures": [arch], "model_type": model_type, "torch_dtype": "bfloat16",
           "vision_config": {"depth": 32, "hidden_size": 1280, "num_heads": 16}}
    if nested:
        out["text_config"] = {"model_type": f"{model_type}_text", **_TEXT}
    else:
        out.update(_TEXT)
    return out


@pytest.mark.parametrize("nested,model_type,pins,p0", [
    # Qwen3-VL #1383: a LLaMA-Factory merge saved by a newer transformers, read by 4.49.0 under vLLM 0.7.3
    (True, "qwen2_5_vl", "vllm==0.7.3\ntransformers==4.49.0\n", True),
    (True, "qwen2_vl", "vllm==0.7.3\ntransformers<4.52\n", True),
    (True, "qwen2_5_vl", "vllm==0.7.3\ntransformers>=4.49\n", False),  # the pin allows 4.52+, which reads it
    (True, "qwen2_5_vl", "vllm==0.7.3\n", False),  # no pin: what pip resolves is not known
    (False, "qwen2_5_vl", "vllm==0.7.3\ntransformers==4.49.0\n", False),  # control: the flat layout 4.49 writes
    (True, "qwen2_5_vl", "vllm==0.13.0\ntransformers==4.49.0\n", False),  # 0.13 no longer asserts there
])
def test_nested_text_config_against_the_pin(tmp_path, nested, model_type, pins, p0):
    (tmp_path / "requirements.txt").write_text(pins)
    (tmp_path / "merged").mkdir()
    (tmp_path / "merged" / "config.json").write_text(json.dumps(_config(nested, model_type)))
    (tmp_path / "infer.py").write_text('from vllm import LLM\nllm = LLM(model="./merged", max_model_len=8192)\n')
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    r = next(r for r in sr.results if r.check.id == "L281")
    assert (r.status == "recommended" and r.priority == "P0") is p0, r.reason_text("en")
