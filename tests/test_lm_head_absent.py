"""L141 on an embedding checkpoint with a generative architecture and no output head
(engine/check/lm_head_absent.py): Qwen3-VL-Embedding-8B (QwenLM/Qwen3-VL-Embedding #21, #89)."""
from __future__ import annotations

import json
from pathlib import Path

import yaml

from vllm_kb.engine.check.lm_head_absent import lm_head_fit

ROOT = Path(__file__).resolve().parents[1]
HUB = yaml.safe_load((ROOT / "knowledge" / "hub_uploads.yaml").read_text())
ARCH = "Qwen3VLForConditionalGeneration"
CONFIG = {"architectures": [ARCH], "model_type": "qwen3_vl", "tie_word_embeddings": False,
          "text_config": {"model_type": "qwen3_vl_text", "tie_word_embeddings": False, "hidden_size": 4096}}


def _facts(name, version="0.13.0", arch=ARCH, **engine):
    return {"model": {"name": name, "architecture": arch, "quantized": False}, "engine": engine, "vllm": {"version": version}}


def _folder(tmp_path, config=CONFIG, index=None, modules=False, name="models/emb"):
    folder = tmp_path / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps(config))
    if index is not None:
        (folder / "model.safetensors.index.json").write_text(json.dumps({"weight_map": {k: "a.safetensors" for k in index}}))
    if modules:
        (folder / "modules.json").write_text(json.dumps([{"type": "sentence_transformers.models.Pooling", "path": "1_Pooling"}]))
    return name


EMBED_ONLY = ["model.language_model.embed_tokens.weight", "model.language_model.layers.0.mlp.up_proj.weight"]


def test_a_folder_whose_index_lists_no_head(tmp_path):
    name = _folder(tmp_path, index=EMBED_ONLY)
    got = lm_head_fit(_facts(name), tmp_path, tmp_path, HUB)
    assert got["lm_head_missing"] == "language_model.lm_head.weight" and got["lm_head_fix"] == "runner_pooling"
    assert got["lm_head_from"] == "model.safetensors.index.json"
    # a head in the index, a tied head, a sentence-transformers layout: nothing to say
    assert lm_head_fit(_facts(_folder(tmp_path, index=EMBED_ONLY + ["lm_head.weight"], name="m2")), tmp_path, tmp_path, HUB) == {}
    tied = {**CONFIG, "text_config": {**CONFIG["text_config"], "tie_word_embeddings": True}}
    assert lm_head_fit(_facts(_folder(tmp_path, config=tied, index=EMBED_ONLY, name="m3")), tmp_path, tmp_path, HUB) == {}
    assert lm_head_fit(_facts(_folder(tmp_path, index=EMBED_ONLY, modules=True, name="m4")), tmp_path, tmp_path, HUB) == {}


def test_the_runner_and_the_release(tmp_path):
    name = _folder(tmp_path, index=EMBED_ONLY)
    assert lm_head_fit(_facts(name, runner="pooling"), tmp_path, tmp_path, HUB) == {}  # 0.13.0 drops the inner head
    got = lm_head_fit(_facts(name, "0.12.0", runner="pooling"), tmp_path, tmp_path, HUB)
    assert got["lm_head_fix"] == "upgrade" and got["lm_head_since"] == "0.13.0"
    assert lm_head_fit(_facts(name, "0.10.2"), tmp_path, tmp_path, HUB) == {}      # no Qwen3-VL class yet
    assert lm_head_fit(_facts(name, quantization="fp8"), tmp_path, tmp_path, HUB) == {}  # no strict check
    assert lm_head_fit(_facts(name, model_impl="transformers"), tmp_path, tmp_path, HUB) == {}
    assert lm_head_fit(_facts(name, arch="Qwen2ForCausalLM"), tmp_path, tmp_path, HUB) == {}


def test_the_upload_row_by_hub_id_and_by_a_folder_named_as_it(tmp_path):
    got = lm_head_fit(_facts("Qwen/Qwen3-VL-Embedding-8B", "0.11.0", arch=None), None, None, HUB)
    assert got["lm_head_arch"] == ARCH and got["lm_head_fix"] == "upgrade"
    assert lm_head_fit(_facts("Qwen/Qwen3-VL-Embedding-2B", "0.13.0"), None, None, HUB) == {}  # the 2B ties its head
    name = _folder(tmp_path, name="models/Qwen3-VL-Embedding-8B")  # config.json only: the folder's name
    assert lm_head_fit(_facts(name), tmp_path, tmp_path, HUB)["lm_head_fix"] == "runner_pooling"
    name = _folder(tmp_path, name="models/Qwen3-VL-8B-Instruct")
    assert lm_head_fit(_facts(name), tmp_path, tmp_path, HUB) == {}


def test_audit_end_to_end(tmp_path):
    from vllm_kb.engine.audit import audit

    (tmp_path / "requirements.txt").write_text("vllm==0.13.0\n")
    (tmp_path / "serve.sh").write_text("vllm serve Qwen/Qwen3-VL-Embedding-8B --port 8000\n")
    res = next(r for r in audit(tmp_path, gpu="L20").sites[0].results if r.check.id == "L141")
    assert (res.status, res.priority) == ("recommended", "P0")
    (tmp_path / "serve.sh").write_text("vllm serve Qwen/Qwen3-VL-Embedding-8B --port 8000 --runner pooling\n")
    res = next(r for r in audit(tmp_path, gpu="L20").sites[0].results if r.check.id == "L141")
    assert res.status != "recommended"
