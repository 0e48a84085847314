"""Rows of knowledge/vllm/release_bugs.yaml model_bugs added from vLLM's own fixes: the expert-name breakage of
0.24.0's MoE refactor (#41184) in gpt-oss's unquantized path (vLLM #45830, PR #45818: `quant_none`) and in
GraniteMoeShared (PR #47031), and a Mistral-format compressed-tensors checkpoint refused while the config is built
(vLLM #34028, PR #34104: `config_format`, `quant`, any architecture)."""
from __future__ import annotations

import pytest

from vllm_kb.engine.check.startup_release_bugs import model_bug_facts
from vllm_kb.engine.kb.knowledge import load


def _table() -> dict:
    return load().doc("vllm", "release_bugs.yaml").data


@pytest.mark.parametrize("model,engine,version,row", [
    ({"quantized": False}, {}, "0.24.0", "gpt-oss-bf16-routed-experts"),
    ({"quantized": False}, {}, "0.25.0", None),  # remap_moe_expert_weights
    ({"quantized": False}, {}, "0.23.0", None),  # before the refactor the names were the checkpoint's
    ({"quantized": True, "quant_method": "mxfp4"}, {}, "0.24.0", None),  # the MXFP4 path remaps
    ({}, {}, "0.24.0", None),  # not known to be unquantized: not claimed
    ({"quantized": False}, {"quantization": "fp8"}, "0.24.0", None),  # online quantization: not this row's claim
])
def test_gpt_oss_unquantized_path(model, engine, version, row):
    assert model_bug_facts("GptOssForCausalLM", engine, _table(), version, model).get("release_bug") == row


def test_gpt_oss_bf16_name_is_unquantized():
    from vllm_kb.engine.kb.models import model_facts
    kb = load()
    markers = kb.doc("models.yaml").data["quantized_markers"]
    assert model_facts("unsloth/gpt-oss-20b-BF16", kb.models, markers)["quantized"] is False
    assert model_facts("openai/gpt-oss-20b", kb.models, markers)["quantized"] is True


@pytest.mark.parametrize("version,row", [("0.24.0", "granitemoeshared-routed-experts"), ("0.23.0", None), ("0.25.0", None)])
def test_granitemoeshared(version, row):
    f = model_bug_facts("GraniteMoeSharedForCausalLM", {}, _table(), version, {})
    assert f.get("release_bug") == row
    if row:
        assert f["release_bug_fixed"] == "0.25.0" and f["release_bug_arch"] == "GraniteMoeSharedForCausalLM"


_CT = {"quant_method": "compressed-tensors"}
_MISTRAL = {"config_format": "mistral", "load_format": "mistral", "tokenizer_mode": "mistral"}


@pytest.mark.parametrize("engine,model,version,hit", [
    (_MISTRAL, _CT, "0.15.1", True),
    (_MISTRAL, _CT, "0.12.0", True),  # the rewrite that dropped the pass-through
    (_MISTRAL, _CT, "0.16.0", True),
    (_MISTRAL, _CT, "0.8.4", True),  # before #16803
    (_MISTRAL, _CT, "0.11.0", False),  # passed through
    (_MISTRAL, _CT, "0.17.0", False),  # #34104
    ({"config_format": "MISTRAL"}, _CT, "0.15.1", True),
    ({}, _CT, "0.15.1", False),  # auto: the format follows the repository's files, not read
    ({"config_format": "hf"}, _CT, "0.15.1", False),
    (_MISTRAL, {"quant_method": "fp8"}, "0.15.1", False),  # Mistral's own FP8 maps
    (_MISTRAL, {}, "0.15.1", False),
    ({**_MISTRAL, "quantization": "compressed-tensors"}, {}, "0.15.1", True),
])
def test_mistral_format_compressed_tensors(engine, model, version, hit):
    f = model_bug_facts("PixtralForConditionalGeneration", engine, _table(), version, model)
    assert (f.get("release_bug") == "mistral-format-ct-quant") is hit
    if hit:
        assert f["release_bug_fixed"] == "0.17.0" and f["release_bug_quant"] == "compressed-tensors"


@pytest.mark.parametrize("engine,version,hit", [
    ({"pipeline_parallel_size": 2}, "0.30.0", True),
    ({"pipeline_parallel_size": 4, "tensor_parallel_size": 2}, "0.9.0", True),
    ({"pipeline_parallel_size": 2}, "0.34.0", True),  # PR #50962 is in no scanned release
    ({"pipeline_parallel_size": 1}, "0.30.0", False),
    ({"tensor_parallel_size": 4}, "0.30.0", False),  # each rank builds every layer
    ({"pipeline_parallel_size": 2}, "0.8.5", False),  # before the class
])
def test_granitemoehybrid_pipeline_parallel(engine, version, hit):
    f = model_bug_facts("GraniteMoeHybridForCausalLM", engine, _table(), version, {})
    assert (f.get("release_bug") == "granitemoehybrid-pp-load") is hit
    if hit:
        assert "release_bug_fixed" not in f and f["release_bug_pp"] == engine["pipeline_parallel_size"]


@pytest.mark.parametrize("version,hit", [("0.24.0", True), ("0.34.0", True), ("0.23.0", False)])
def test_dbrx_unfixed(version, hit):
    f = model_bug_facts("DbrxForCausalLM", {}, _table(), version, {})
    assert (f.get("release_bug") == "dbrx-routed-experts") is hit
    if hit:
        assert f["release_bug_since"] == "0.24.0" and "release_bug_fixed" not in f
