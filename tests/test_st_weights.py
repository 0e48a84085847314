"""L141 on a sentence-transformers embedding upload whose weights carry no `model.` prefix, served by
vLLM 0.10.0 with no task (engine/check/st_weights.py): Qwen3-Embedding (vLLM #21614, #21823)."""
from __future__ import annotations

from pathlib import Path

import yaml

from vllm_kb.engine.check.st_weights import st_weights_fit

ROOT = Path(__file__).resolve().parents[1]
HUB = yaml.safe_load((ROOT / "knowledge" / "hub_uploads.yaml").read_text())


def _facts(name="Qwen/Qwen3-Embedding-8B", version="0.10.0", **engine):
    return {"model": {"name": name}, "engine": engine, "vllm": {"version": version}}


def test_the_hub_id_and_a_folder_named_as_it_on_0100():
    got = st_weights_fit(_facts(), HUB)
    assert got["st_generate_arch"] == "Qwen3ForCausalLM" and got["st_generate_name"] == "layers"
    assert st_weights_fit(_facts("./models/Qwen3-Embedding-8B"), HUB)["st_generate_name"] == "layers"
    assert st_weights_fit(_facts("Qwen/Qwen3-Embedding-0.6B"), HUB)["st_generate_name"] == "embed_tokens"


def test_other_releases_a_task_and_overrides_stand_down():
    assert st_weights_fit(_facts(version="0.9.2"), HUB) == {}     # embed preferred from modules.json
    assert st_weights_fit(_facts(version="0.10.1"), HUB) == {}    # pooling runner from modules.json
    assert st_weights_fit(_facts(task="embed"), HUB) == {}
    assert st_weights_fit(_facts(task="auto"), HUB) != {}
    assert st_weights_fit(_facts(hf_overrides={"architectures": ["Qwen3Model"]}), HUB) == {}
    assert st_weights_fit(_facts(model_impl="transformers"), HUB) == {}
    assert st_weights_fit(_facts("someone/Qwen3-Embedding-8B-finetune"), HUB) == {}  # no row: not guessed
