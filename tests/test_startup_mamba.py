"""L76's facts: speculative decoding on a model with Mamba-style layers (engine/check/startup_mamba.py)."""
from __future__ import annotations

import pytest

from vllm_kb.engine.check.startup_mamba import mamba_spec_facts
from vllm_kb.engine.kb.knowledge import load

NGRAM = {"method": "ngram", "num_speculative_tokens": 4}
DRAFT = {"method": "draft_model", "model": "small", "num_speculative_tokens": 4}


@pytest.fixture(scope="module")
def table():
    return load().doc("vllm", "mamba_spec.yaml").data


@pytest.mark.parametrize("spec, model, arch, version, refused", [
    (NGRAM, {}, "NemotronHForCausalLM", "0.12.0", True),
    (NGRAM, {}, "JambaForCausalLM", "0.16.0", True),
    (NGRAM, {}, "NemotronHForCausalLM", "0.17.0", False),  # Mamba backends draft from 0.17.0
    (NGRAM, {}, "NemotronHForCausalLM", "0.10.0", False),  # not said before 0.10.1
    ({"method": "mtp", "num_speculative_tokens": 2}, {}, "Qwen3NextForCausalLM", "0.12.0", False),  # skipped model type
    (NGRAM, {}, "LlamaForCausalLM", "0.12.0", False),
    (DRAFT, {}, "NemotronHForCausalLM", "0.12.0", False),  # G3 refuses draft models first
    (DRAFT, {}, "NemotronHForCausalLM", "0.15.0", True),
    ({"num_speculative_tokens": 2}, {}, "NemotronHForCausalLM", "0.12.0", False),  # method not known
    (NGRAM, {}, "GraniteMoeHybridForCausalLM", "0.12.0", False),  # granite-4.0-micro has no Mamba layer
    (NGRAM, {"family": "granite-4.0-h"}, "GraniteMoeHybridForCausalLM", "0.12.0", True),
])
def test_refused(table, spec, model, arch, version, refused):
    got = mamba_spec_facts({"speculative_config": spec}, model, arch, True, table, version)
    assert ("mamba_spec_refused" in got) is refused


def test_v0_and_no_spec(table):
    assert mamba_spec_facts({"speculative_config": NGRAM}, {}, "NemotronHForCausalLM", False, table, "0.10.1.1") == {}
    assert mamba_spec_facts({}, {}, "NemotronHForCausalLM", True, table, "0.12.0") == {}


def test_line_per_release(table):
    got = mamba_spec_facts({"speculative_config": NGRAM}, {}, "BambaForCausalLM", True, table, "0.11.0")
    assert got["mamba_spec_refused"] == "vllm/v1/worker/gpu_model_runner.py:4117"
