"""Embedding and reranking encoders (BERT, XLM-RoBERTa, ModernBERT, NomicBERT): the catalog names
their architecture, and a release that registers a class that cannot generate serves it as a
pooling model (or refuses the launch: L141) — so the KV-capacity advice (B1, B3, L15, L16) does
not apply to them even when no --task/--runner says so."""
from __future__ import annotations

import pytest
from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.startup_task import pools_natively
from vllm_kb.engine.kb import knowledge, model_identity, models

KB = knowledge.load()
MARKERS = KB.doc("models.yaml").data["quantized_markers"]
RUNNERS, ARCHS = KB.doc("vllm", "runners.yaml").data, KB.doc("vllm", "architectures.yaml").data


def facts(name: str) -> dict:
    return models.model_facts(name, KB.models, MARKERS)


@pytest.mark.parametrize("name,arch", [
    ("BAAI/bge-m3", "XLMRobertaModel"),
    ("BAAI/bge-large-en-v1.5", "BertModel"),
    ("intfloat/multilingual-e5-large", "XLMRobertaModel"),
    ("intfloat/e5-base-v2", "BertModel"),
    ("ibm-granite/granite-embedding-english-r2", "ModernBertModel"),
    ("nomic-ai/nomic-embed-text-v1.5", "NomicBertModel"),
    ("BAAI/bge-reranker-v2-m3", "XLMRobertaForSequenceClassification"),
    ("/models/bge-m3", "XLMRobertaModel"),
])
def test_encoder_architectures(name, arch):
    assert facts(name)["architecture"] == arch


@pytest.mark.parametrize("name", ["BAAI/bge-multilingual-gemma2", "intfloat/e5-mistral-7b-instruct",
                                  "Alibaba-NLP/gte-Qwen2-7B-instruct", "BAAI/bge-en-icl"])
def test_decoder_embedders_are_not_taken_for_encoders(name):
    assert facts(name).get("family") != "encoder-embedders"


def test_a_decoder_made_headless_keeps_the_class_vllm_tests_load():
    f = facts("intfloat/e5-mistral-7b-instruct")
    model_identity.example_architecture(f, "intfloat/e5-mistral-7b-instruct", KB.doc("vllm", "example_models.yaml").data)
    assert f["architecture"] == "MistralModel"
    g = facts("mistralai/Mistral-7B-Instruct-v0.3")
    model_identity.example_architecture(g, "mistralai/Mistral-7B-Instruct-v0.3", KB.doc("vllm", "example_models.yaml").data)
    assert g["architecture"] == "MistralForCausalLM"


@pytest.mark.parametrize("arch,version,engine,pools", [
    ("BertModel", "0.6.4", {}, True),
    ("XLMRobertaModel", "0.11.2", {}, True),
    ("ModernBertModel", "0.11.2", {}, True),         # neither generates nor pools natively: converted or refused
    ("ModernBertModel", "0.8.5", {}, False),         # not registered yet
    ("BertModel", "0.11.2", {"runner": "generate"}, False),
    ("MistralForCausalLM", "0.11.2", {}, False),
    ("BertModel", "0.5.5", {}, False),               # before the table: unknown
])
def test_pools_natively(arch, version, engine, pools):
    assert pools_natively({"architecture": arch}, engine, RUNNERS, ARCHS, version) is pools


# a generative model whose KV cache still gets memory at 0.3 (where it gets none, L16 names the share and B1 stands down)
@pytest.mark.parametrize("model,b1", [("BAAI/bge-m3", False), ("Qwen/Qwen2.5-0.5B-Instruct", True)])
def test_a_small_memory_share_is_fine_for_an_embedding_server(tmp_path, model, b1):
    (tmp_path / "serve.sh").write_text(f"vllm serve {model} --gpu-memory-utilization 0.3\n")
    (tmp_path / "requirements.txt").write_text("vllm==0.11.0\n")
    (sr,) = audit(tmp_path, gpu="L4").sites
    assert sr.facts["site"]["pooling"] is not b1
    flagged = {r.check.id for r in sr.results if r.needs_change}
    assert ("B1" in flagged) is b1
    assert not flagged & {"B3", "L15", "L16"} or b1
