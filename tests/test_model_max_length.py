"""A config.json model_max_length beside a smaller max_position_embeddings (Command-R v01: 131072 and
8192): vLLM 0.4.0+ accepts a max_model_len up to it (_get_and_verify_max_len, vLLM #3727 fixing
#3676) and refuses one above it; 0.3.x reads only the length keys."""
from __future__ import annotations

import json

from vllm_kb.engine.audit import audit

COHERE = {"architectures": ["CohereForCausalLM"], "model_type": "cohere", "max_position_embeddings": 8192,
          "model_max_length": 131072, "hidden_size": 8192, "num_hidden_layers": 40, "num_attention_heads": 64,
          "num_key_value_heads": 64, "intermediate_size": 22528, "vocab_size": 256000, "torch_dtype": "float16"}


def _l14(tmp_path, version: str, length: int):
    (tmp_path / "ckpt").mkdir(parents=True)
    (tmp_path / "ckpt" / "config.json").write_text(json.dumps(COHERE))
    (tmp_path / "requirements.txt").write_text(f"vllm=={version}\n")
    (tmp_path / "serve.sh").write_text(f"vllm serve ./ckpt --tensor-parallel-size 4 --max-model-len {length}\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB x4").sites
    return next(r for r in sr.results if r.check.id == "L14")


def test_up_to_model_max_length_starts(tmp_path):
    for i, v in enumerate(("0.5.4", "0.8.2", "0.10.0")):
        r = _l14(tmp_path / str(i), v, 131072)
        assert r.status == "enabled", (v, r.reason)


def test_above_model_max_length_is_refused(tmp_path):
    r = _l14(tmp_path, "0.6.3", 262144)
    assert r.needs_change and r.priority == "P0"


def test_catalog_name_alone(tmp_path):
    (tmp_path / "requirements.txt").write_text("vllm==0.4.0\n")
    (tmp_path / "serve.sh").write_text("python -m vllm.entrypoints.openai.api_server --model CohereForAI/c4ai-command-r-v01 "
                                       "--tensor-parallel-size 4 --max-model-len 262144\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB x4").sites
    r = next(r for r in sr.results if r.check.id == "L14")
    assert r.needs_change and r.priority == "P0"


def test_gpt2_family_n_positions(tmp_path):
    # DialoGPT-medium (GPT-2 shapes): its config.json gives the length as n_positions 1024, which
    # vLLM reads beside max_position_embeddings; 2048 is refused by name alone and from a checkpoint
    (tmp_path / "requirements.txt").write_text("vllm==0.8.5\n")
    (tmp_path / "serve.sh").write_text("vllm serve microsoft/DialoGPT-medium --max-model-len 2048\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    r = next(r for r in sr.results if r.check.id == "L14")
    assert r.needs_change and r.priority == "P0" and r.values["startup.max_len_key"] == "n_positions"
    ckpt = tmp_path / "b"
    (ckpt / "ckpt").mkdir(parents=True)
    (ckpt / "ckpt" / "config.json").write_text(json.dumps({
        "architectures": ["GPT2LMHeadModel"], "model_type": "gpt2", "n_positions": 1024, "n_ctx": 1024, "n_embd": 1024,
        "n_layer": 24, "n_head": 16, "vocab_size": 50257}))
    (ckpt / "requirements.txt").write_text("vllm==0.8.5\n")
    (ckpt / "serve.sh").write_text("vllm serve ./ckpt --max-model-len 2048\n")
    (sr,) = audit(ckpt, gpu="A100-80GB").sites
    r = next(r for r in sr.results if r.check.id == "L14")
    assert r.needs_change and r.priority == "P0" and r.values["startup.max_len_key"] == "n_positions"
