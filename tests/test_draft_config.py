"""engine/check/draft_config.py: a speculative draft given as a folder is known by its own config.json,
not by the catalog model its name resembles; a Hub id without a copy here keeps the name's look-up."""
import json

import pytest
from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.draft_config import draft_lookup, draft_names
from vllm_kb.engine.kb.knowledge import load

KB = load()
# a Qwen2 config with the 7B+ vocabulary (152064), in a folder named like the 0.5B model (151936)
QWEN2 = {"architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2", "hidden_size": 896, "intermediate_size": 4864,
         "num_hidden_layers": 24, "num_attention_heads": 14, "num_key_value_heads": 2, "vocab_size": 152064,
         "max_position_embeddings": 32768, "torch_dtype": "bfloat16"}


@pytest.fixture(autouse=True)
def _no_cache(monkeypatch):
    monkeypatch.setenv("VLLM_KB_HF_CACHE", "0")


def _site(tmp_path, draft: str, config: dict | None, extra: str = ', "num_speculative_tokens": 4'):
    (tmp_path / "requirements.txt").write_text("vllm==0.20.0\n")
    spec = f'{{"method": "draft_model", "model": "{draft}"{extra}}}'
    (tmp_path / "serve.sh").write_text(f"vllm serve Qwen/Qwen2.5-72B-Instruct --tensor-parallel-size 8 "
                                       f"--max-model-len 8192 --speculative-config '{spec}'\n")
    if config is not None:
        (tmp_path / draft).mkdir(parents=True)
        (tmp_path / draft / "config.json").write_text(json.dumps(config))
    (sr,) = audit(tmp_path, gpu="A100-80GB x8").sites
    return sr


def _status(sr, check: str) -> str:
    return next(r.status for r in sr.results if r.check.id == check)


def test_the_folders_config_beats_its_name(tmp_path):
    sr = _site(tmp_path, "drafts/Qwen2.5-0.5B-custom", QWEN2)
    assert sr.facts["startup"].get("spec_draft_vocab") == 152064
    assert _status(sr, "L90") != "recommended"


def test_a_hub_id_is_looked_up_by_its_name_as_before(tmp_path):
    sr = _site(tmp_path, "Qwen/Qwen2.5-0.5B-Instruct", None)
    assert sr.facts["startup"].get("spec_draft_vocab") == 151936 and "drafts" not in sr.facts
    assert _status(sr, "L90") == "recommended"


def test_a_folder_named_like_the_model_with_the_same_vocabulary_keeps_the_finding(tmp_path):
    sr = _site(tmp_path, "drafts/Qwen2.5-0.5B-custom", {**QWEN2, "vocab_size": 151936})
    assert _status(sr, "L90") == "recommended"


def test_n_predict_in_the_drafts_config_gives_the_number(tmp_path):
    sr = _site(tmp_path, "drafts/Qwen2.5-0.5B-custom", {**QWEN2, "vocab_size": 152064, "n_predict": 2}, extra="")
    assert "spec_tokens_missing" not in sr.facts["startup"]
    sr = _site(tmp_path / "b", "Qwen/Qwen2.5-0.5B-Instruct", None, extra="") if (tmp_path / "b").mkdir() is None else None
    assert sr.facts["startup"].get("spec_tokens_missing") == "draft_model"


def test_lookup_prefers_the_read_config():
    look = draft_lookup({"drafts": {"./eagle-llama3-8b": {"architecture": "Qwen2ForCausalLM"}}}, KB)
    assert look("./eagle-llama3-8b")["architecture"] == "Qwen2ForCausalLM"
    assert look("meta-llama/Llama-3.1-8B-Instruct").get("family")
    assert draft_names({"speculative_model": "[ngram]", "speculative_config": {"model": "d"}}) == ["d"]
