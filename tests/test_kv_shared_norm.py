"""L153's facts: a Gemma 4 checkpoint folder whose index lacks the KV-shared layers' key norms."""
import json

from vllm_kb.engine.check.kv_shared_norm import kv_shared_norm_fit


def _checkpoint(tmp_path, norms_upto: int, layers: int = 6, shared: int = 2, model_type: str = "gemma4"):
    ck = tmp_path / "ck"
    ck.mkdir()
    (ck / "config.json").write_text(json.dumps({"model_type": model_type, "text_config": {
        "model_type": f"{model_type}_text", "num_hidden_layers": layers, "num_kv_shared_layers": shared}}))
    names = {f"model.language_model.layers.{i}.self_attn.k_norm.weight": "a.safetensors" for i in range(norms_upto)}
    names["model.audio_tower.layers.5.self_attn.k_norm.weight"] = "a.safetensors"  # a tower's layers are not the decoder's
    (ck / "model.safetensors.index.json").write_text(json.dumps({"weight_map": names}))
    return {"model": {"name": "ck"}}


def test_missing_key_norms_of_the_shared_layers_are_counted(tmp_path):
    facts = _checkpoint(tmp_path, norms_upto=4)
    assert kv_shared_norm_fit(facts, tmp_path, tmp_path) == {"kv_shared_k_norm_missing": 2, "kv_shared_first": 4}


def test_a_complete_checkpoint_or_another_model_says_nothing(tmp_path):
    assert kv_shared_norm_fit(_checkpoint(tmp_path, norms_upto=6), tmp_path, tmp_path) == {}
    other = tmp_path / "o"
    other.mkdir()
    assert kv_shared_norm_fit(_checkpoint(other, norms_upto=4, model_type="gemma3"), other, other) == {}


def test_an_index_naming_no_key_norm_at_all_says_nothing(tmp_path):
    assert kv_shared_norm_fit(_checkpoint(tmp_path, norms_upto=0), tmp_path, tmp_path) == {}


import pytest  # noqa: E402

from vllm_kb.engine.audit import audit  # noqa: E402


@pytest.mark.parametrize("model,version,p0", [
    ("google/gemma-4-E2B-it-qat-q4_0-unquantized", "0.22.0", True),  # vLLM #44788: its row in hub_uploads.yaml
    ("google/gemma-4-E4B-it-qat-q4_0-unquantized", "0.29.0", True),
    ("google/gemma-4-E2B-it-qat-q4_0-unquantized", "0.30.0", False),  # no key norm in a KV-shared layer
    ("google/gemma-4-E2B-it", "0.22.0", False),  # the original upload holds every layer's key norm
])
def test_l153_reads_a_hub_upload_row(tmp_path, model, version, p0):
    (tmp_path / "requirements.txt").write_text(f"vllm=={version}\n")
    (tmp_path / "serve.sh").write_text(f"vllm serve {model}\n")
    (sr,) = audit(tmp_path, gpu="L4").sites
    r = next(r for r in sr.results if r.check.id == "L153")
    assert (r.needs_change and r.priority == "P0") == p0, r.reason_text("en")
