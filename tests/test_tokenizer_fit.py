"""L123: a checkpoint saved by transformers 5 (tokenizer_config.json `"tokenizer_class":
"TokenizersBackend"`) under a transformers below 5 — the project's pin, or vLLM's own `<5`
requirement (0.11.1–0.19.0) — stops at AutoTokenizer (QwenPaw #3084 on vLLM 0.19.0)."""
import json

import pytest

from vllm_kb.engine.audit import audit


def _l123(tmp_path, pins: str, cls: str = "TokenizersBackend"):
    ckpt = tmp_path / "ckpt"
    ckpt.mkdir()
    (ckpt / "config.json").write_text(json.dumps({"architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2",
                                                  "torch_dtype": "bfloat16", "num_hidden_layers": 28, "hidden_size": 3584,
                                                  "num_attention_heads": 28, "num_key_value_heads": 4,
                                                  "intermediate_size": 18944, "vocab_size": 152064,
                                                  "max_position_embeddings": 32768}))
    (ckpt / "tokenizer_config.json").write_text(json.dumps({"tokenizer_class": cls, "model_max_length": 32768}))
    (tmp_path / "requirements.txt").write_text(pins)
    (tmp_path / "serve.sh").write_text("vllm serve ./ckpt --max-model-len 8192\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    return next(r for r in sr.results if r.check.id == "L123")


@pytest.mark.parametrize("pins", ["vllm==0.19.0\n", "vllm==0.12.0\n", "vllm==0.20.0\ntransformers==4.57.1\n",
                                  "vllm==0.10.0\ntransformers<5\n"])
def test_below_5_stops(tmp_path, pins):
    r = _l123(tmp_path, pins)
    assert r.status == "recommended" and r.priority == "P0"
    assert "Qwen2TokenizerFast" in r.reason_text("en")


@pytest.mark.parametrize("pins,cls", [("vllm==0.20.0\n", "TokenizersBackend"), ("vllm==0.24.0\n", "TokenizersBackend"),
                                      ("vllm==0.10.0\n", "TokenizersBackend"),  # a floor only: what pip installs is not known
                                      ("vllm==0.19.0\n", "Qwen2TokenizerFast")])
def test_no_p0(tmp_path, pins, cls):
    r = _l123(tmp_path, pins, cls)
    assert not (r.status == "recommended" and r.priority == "P0"), r.reason_text("en")
