"""A model the catalog does not place is known by its architecture when its name starts with a
family name vLLM's own docs and tests name under one class (tools/vllm_arch_names.py →
knowledge/vllm/arch_names.yaml, engine/kb/arch_names.py)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from release_tree import write_release  # noqa: E402
from vllm_arch_names import build, family_of_name, names_class  # noqa: E402

from vllm_kb.engine.check.startup_arch import arch_facts  # noqa: E402
from vllm_kb.engine.kb import arch_names  # noqa: E402
from vllm_kb.engine.kb.knowledge import load  # noqa: E402
from vllm_kb.engine.kb.models import model_facts  # noqa: E402

KB = load()
TABLE = KB.doc("vllm", "arch_names.yaml").data
MARKERS = KB.doc("models.yaml").data["derived_markers"]


def _facts(name: str) -> dict:
    mf = model_facts(name, KB.models, KB.doc("models.yaml").data.get("quantized_markers", []),
                     identity=KB.doc("models.yaml").data)
    arch_names.resolve(mf, name, TABLE, KB.doc("vllm", "example_models.yaml").data, MARKERS)
    return mf


def test_family_name_stops_at_size_version_and_tuning_words():
    assert family_of_name("dbrx-instruct") == "dbrx"
    assert family_of_name("XVERSE-65B-Chat") == "XVERSE"
    assert family_of_name("Qwen1.5-MoE-A2.7B") == "Qwen1.5-MoE"  # a dotted version stays in the name
    assert family_of_name("falcon-mamba-7b-instruct") == "falcon-mamba"
    assert family_of_name("aya-vision-8b") == "aya-vision"  # a modality word names another model
    assert family_of_name("7B-chat") is None


def test_a_brand_on_another_class_names_no_family():
    assert names_class("dbrx", "DbrxForCausalLM") and names_class("gpt-j", "GPTJForCausalLM")
    assert not names_class("hermes", "LlamaForCausalLM") and not names_class("dolphin", "DonutForConditionalGeneration")


def test_build_keeps_families_two_checkpoints_agree_on_and_drops_clashes(tmp_path):
    write_release(tmp_path / "0.9.0", {"docs/models/supported_models.md": """
        ## List of Text-only Language Models
        | `DbrxForCausalLM` | DBRX | `databricks/dbrx-base`, `databricks/dbrx-instruct`, etc. | | |
        | `XverseForCausalLM` | XVERSE | `xverse/XVERSE-7B-Chat`, etc. | | |
        | `MambaForCausalLM` | Mamba | `state-spaces/mamba-130m-hf`, `state-spaces/mamba-2.8b-hf` | | |
        | `PixtralForConditionalGeneration` | Pixtral (Mistral format) | `mistralai/Pixtral-12B-2409`, `mistralai/Pixtral-Large-Instruct-2411` | | |
        ## List of Multimodal Language Models
        | `Mamba2VLForConditionalGeneration` | Mamba VL | T + I | `state-spaces/mamba-130m-hf` | | |
    """, "tests/models/registry.py": """
        _TEXT_GENERATION_EXAMPLE_MODELS = {"XverseForCausalLM": _HfExamplesInfo("xverse/XVERSE-13B-Chat")}
    """})
    rows = {r["stem"]: r for r in build([tmp_path])["families"]}
    assert rows["dbrx"]["architecture"] == "DbrxForCausalLM" and rows["dbrx"]["kind"] == "text"
    assert rows["xverse"]["examples"] == ["xverse/XVERSE-13B-Chat", "xverse/XVERSE-7B-Chat"]
    assert "mamba" not in rows  # one checkpoint under two classes
    assert "pixtral" not in rows  # the Mistral format: not the class config.json names


def test_a_path_or_cache_folder_of_a_family_gets_its_class():
    for name in ("/data1/LLM/model/AI-ModelScope/dbrx-instruct", "databricks/dbrx-base",
                 "/root/.cache/huggingface/hub/models--databricks--dbrx-instruct/snapshots/0123456789abcdef0123",
                 "./saves/dbrx_instruct_sft/merged"):
        mf = _facts(name)
        assert mf.get("architecture") == "DbrxForCausalLM", name
        assert mf.get("architecture_from") in ("name-family", "name-checkpoint"), name  # the repository's own name, or its family's
    assert _facts("XVERSE-65B")["architecture"] == "XverseForCausalLM"


def test_a_word_that_makes_another_model_says_nothing():
    assert _facts("/models/dbrx-instruct-reward").get("architecture") is None
    assert _facts("/models/internlm-xcomposer2-7b").get("architecture") is None
    assert _facts("/models/my-dbrx").get("architecture") is None  # the family's name must come first
    # the catalog's own family is never replaced
    assert _facts("/models/Qwen2.5-7B-Instruct")["architecture"] == "Qwen2ForCausalLM"


def test_a_family_class_makes_a_release_without_it_refuse():
    table = KB.doc("vllm", "architectures.yaml").data
    mf = _facts("/data1/LLM/model/AI-ModelScope/dbrx-instruct")
    assert arch_facts(mf, table, "0.3.3")["arch_fallback"] == "none"
    assert arch_facts(mf, table, "0.4.0")["arch_registered"] is True


def test_t5_is_named_by_the_catalog():
    mf = _facts("google/flan-t5-large")
    assert mf["architecture"] == "T5ForConditionalGeneration"
    assert _facts("t5-small")["architecture"] == "T5ForConditionalGeneration"
    assert _facts("castorini/monot5-large-msmarco").get("family") is None


def test_the_mistral_format_reads_the_class_params_json_makes():
    from vllm_kb.engine.check.startup_arch import mistral_format

    small = _facts("/mnt/static_files/weights/Mistral-Small-3.1-24B-Instruct-2503")
    assert small["architecture"] == "Mistral3ForConditionalGeneration"  # config.json (HF format)
    assert mistral_format(small, {"config_format": "mistral"})["architecture"] == "PixtralForConditionalGeneration"
    assert mistral_format(small, {"config_format": "auto"}) is small
    text = _facts("mistralai/Mistral-7B-Instruct-v0.3")
    assert mistral_format(text, {"config_format": "mistral"})["architecture"] == "MistralForCausalLM"
    moe = _facts("mistralai/Mixtral-8x7B-Instruct-v0.1")
    assert mistral_format(moe, {"config_format": "mistral"}) is moe


def test_a_listed_checkpoint_of_a_transformers_class_is_known_by_its_name():
    assert (_facts("EleutherAI/pythia-70m").get("architecture"), _facts("EleutherAI/pythia-70m").get("architecture_from")) \
        == ("GPTNeoXForCausalLM", "name-checkpoint")
    assert _facts("/data/models/pythia-70m")["architecture"] == "GPTNeoXForCausalLM"
    assert _facts("pythia-70m").get("architecture") is None  # a bare word is no checkpoint
    assert "BAAI/bge-m3" not in TABLE["checkpoints"]  # BgeM3EmbeddingModel is vLLM's own class, not config.json's


def test_the_transformers_fallback_of_072_to_084_refuses_in_its_own_words():
    # vllm #15006 (0.7.3): the registry hands an unknown class to the Transformers fallback, whose
    # loader raises "... has no vLLM implementation and the Transformers implementation is not
    # compatible with vLLM"; before 0.7.2 and from 0.8.5 the words differ
    table = KB.doc("vllm", "architectures.yaml").data
    mf = {"architecture": "Qwen2_5_VLForSequenceClassification", "multimodal": True}
    assert arch_facts(mf, table, "0.7.3").get("arch_fallback_refused") is True
    assert arch_facts(mf, table, "0.8.4").get("arch_fallback_refused") is True
    assert "arch_fallback_refused" not in arch_facts(mf, table, "0.7.1")
    assert "arch_fallback_refused" not in arch_facts(mf, table, "0.8.5")
