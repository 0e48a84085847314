"""The checkpoints vLLM's own tests load per architecture (tools/vllm_example_models.py →
knowledge/vllm/example_models.yaml) name the class of a model the catalog does not place."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from release_tree import write_release  # noqa: E402
from vllm_example_models import scan  # noqa: E402

from vllm_kb.engine.kb import model_identity  # noqa: E402
from vllm_kb.engine.kb.knowledge import load  # noqa: E402


def test_scan_reads_defaults_and_extras_and_drops_ambiguous_ones(tmp_path):
    root = write_release(tmp_path, {"tests/models/registry.py": """
        _SPECULATIVE_DECODING_EXAMPLE_MODELS = {"DraftMTPModel": _HfExamplesInfo("org/target")}
        _TEXT_GENERATION_EXAMPLE_MODELS = {
            "OPTForCausalLM": _HfExamplesInfo("facebook/opt-125m", extras={"big": "facebook/opt-6.7b"}),
            "Renamed": _HfExamplesInfo("org/renamed", hf_overrides={"architectures": ["Renamed"]}),
            "ACausalLM": _HfExamplesInfo("org/both"),
            "AForSequenceClassification": _HfExamplesInfo("org/both"),
            "Local": _HfExamplesInfo("not-a-hub-id"),
        }
    """})
    assert scan(root) == {"facebook/opt-125m": "OPTForCausalLM", "facebook/opt-6.7b": "OPTForCausalLM"}
    assert scan(tmp_path / "none") is None


def test_a_name_or_a_folder_named_like_an_example_gets_its_class():
    table = load().doc("vllm", "example_models.yaml").data

    def arch(name, facts=None):
        facts = dict(facts or {})
        model_identity.example_architecture(facts, name, table)
        return facts.get("architecture")

    assert arch("facebook/OPT-125m") == "OPTForCausalLM"
    assert arch("/data/models/Qwen/Qwen3-Omni-30B-A3B-Instruct") == "Qwen3OmniMoeForConditionalGeneration"
    # a bare word, or another organisation's upload of the same name, is not claimed
    assert arch("opt-125m") is None and arch("someone/opt-125m") is None
    # the catalog's (or config.json's) class is never replaced
    assert arch("facebook/opt-125m", {"architecture": "X"}) == "X"


def test_a_class_from_the_tests_never_makes_a_release_refuse():
    from vllm_kb.engine.check.startup_arch import arch_facts

    table = load().doc("vllm", "architectures.yaml").data
    guess = {"architecture": "BgeM3EmbeddingModel", "architecture_from": "vllm-tests"}
    assert arch_facts(guess, table, "0.6.3") == {}  # config.json then said XLMRobertaModel
    assert arch_facts(guess, table, "0.16.0")["arch_registered"] is True
