"""Model classes that break only under pipeline parallelism (knowledge/vllm/release_bugs.yaml model_bugs with
min_pp): the MoE layer walk of DeepSeek-V2/V3 in 0.9.2 and of Llama 4 in 0.11.1-0.11.2 asserts on the other
stages' PPMissingLayer placeholders (vLLM #20647, PR #20665; PR #28577); and the rows of one backend (compressed-tensors
targets the Transformers backend maps away in 0.11.1-0.12.0, vLLM #30969, PR #30287)."""
from __future__ import annotations

import pytest

from vllm_kb.engine.check.startup_release_bugs import model_bug_facts
from vllm_kb.engine.kb.knowledge import load


def _table() -> dict:
    return load().doc("vllm", "release_bugs.yaml").data


@pytest.mark.parametrize("arch,engine,version,row", [
    ("DeepseekV2ForCausalLM", {"pipeline_parallel_size": 2}, "0.9.2", "deepseek-v2-pp-missing-layer"),
    ("DeepseekV3ForCausalLM", {"pipeline_parallel_size": 4, "tensor_parallel_size": 8}, "0.9.2", "deepseek-v3-pp-missing-layer"),
    ("DeepseekV2ForCausalLM", {}, "0.9.2", None),  # no pipeline parallelism: every layer is the class's own
    ("DeepseekV2ForCausalLM", {"pipeline_parallel_size": 1}, "0.9.2", None),
    ("DeepseekV2ForCausalLM", {"pipeline_parallel_size": "$PP"}, "0.9.2", None),  # unread: not claimed
    ("DeepseekV2ForCausalLM", {"pipeline_parallel_size": 2}, "0.9.1", None),  # the walk came with 0.9.2
    ("DeepseekV2ForCausalLM", {"pipeline_parallel_size": 2}, "0.10.0", None),  # PR 20665 skips the placeholders
    ("DeepseekV2ForCausalLM", {"pipeline_parallel_size": 2, "model_impl": "transformers"}, "0.9.2", None),
    ("Llama4ForConditionalGeneration", {"pipeline_parallel_size": 4}, "0.11.1", "llama4-mm-pp-missing-layer"),
    ("Llama4ForCausalLM", {"pipeline_parallel_size": 2}, "0.11.2", "llama4-pp-missing-layer"),
    ("Llama4ForConditionalGeneration", {"pipeline_parallel_size": 4}, "0.11.0", None),
    ("Llama4ForConditionalGeneration", {"pipeline_parallel_size": 4}, "0.12.0", None),
    ("Glm4MoeForCausalLM", {"pipeline_parallel_size": 2, "tensor_parallel_size": 4}, "0.10.0", "glm4-moe-pp-missing-layer"),
    ("Glm4MoeForCausalLM", {"pipeline_parallel_size": 2}, "0.10.1", None),  # PR 21531 skips the placeholders
    ("Glm4MoeForCausalLM", {"tensor_parallel_size": 8}, "0.10.0", None),
])
def test_pp_rows(arch, engine, version, row):
    f = model_bug_facts(arch, engine, _table(), version)
    assert f.get("release_bug") == row
    if row:
        assert f["release_bug_pp"] == engine["pipeline_parallel_size"] and f["release_bug_arch"] == arch


_CT = {"quant_method": "compressed-tensors"}


@pytest.mark.parametrize("arch,engine,model,version,fallback,hit", [
    ("SmolLM3ForCausalLM", {}, _CT, "0.11.1", None, True),  # the registry serves it through the backend
    ("SmolLM3ForCausalLM", {}, _CT, "0.12.0", None, True),
    ("SmolLM3ForCausalLM", {}, _CT, "0.11.0", None, False),  # 0.11.0's TransformersForCausalLM maps no names
    ("SmolLM3ForCausalLM", {}, _CT, "0.13.0", None, False),  # only layer paths are mapped
    ("SmolLM3ForCausalLM", {}, {"quant_method": "fp8"}, "0.11.1", None, False),
    ("SmolLM3ForCausalLM", {}, {}, "0.11.1", None, False),
    ("Qwen3ForCausalLM", {"model_impl": "transformers"}, _CT, "0.12.0", None, True),
    ("Qwen3ForCausalLM", {}, _CT, "0.12.0", None, False),  # vLLM's own class
    ("Qwen3ForCausalLM", {"model_impl": "vllm"}, _CT, "0.12.0", None, False),
    ("SmolLM3ForCausalLM", {"model_impl": "vllm"}, _CT, "0.11.1", None, False),
    ("SomeNewForCausalLM", {}, _CT, "0.11.2", "transformers", True),  # the fallback for a class vLLM lacks
    ("SomeNewForCausalLM", {"quantization": "compressed-tensors"}, {}, "0.11.2", "transformers", True),
])
def test_compressed_tensors_on_the_transformers_backend(arch, engine, model, version, fallback, hit):
    f = model_bug_facts(arch, engine, _table(), version, model, fallback)
    assert (f.get("release_bug") == "ct-targets-transformers-backend") is hit
    if hit:
        assert f["release_bug_fixed"] == "0.13.0" and f["release_bug_backend"] == "transformers"


@pytest.mark.parametrize("model,engine,version,hit", [
    ({"quant_bnb_skip": "dynamic"}, {"quantization": "bitsandbytes", "load_format": "bitsandbytes"}, "0.7.1", True),
    ({"quant_bnb_skip": ["model.layers.0.mlp"]}, {"load_format": "bitsandbytes"}, "0.7.2", True),
    ({"quant_bnb_skip": "dynamic"}, {"quantization": "bitsandbytes", "load_format": "bitsandbytes"}, "0.7.3", False),
    ({}, {"quantization": "bitsandbytes", "load_format": "bitsandbytes"}, "0.7.1", False),  # quantized throughout
    ({"quant_bnb_skip": "dynamic"}, {}, "0.7.1", False),  # not through the BitsAndBytes loader
])
def test_bnb_checkpoint_with_16bit_layers(model, engine, version, hit):
    from vllm_kb.engine.check.startup_release_bugs import release_bug_facts
    f = release_bug_facts({"name": "unsloth/Mistral-Small-24B-Instruct-2501-unsloth-bnb-4bit", **model}, engine, _table(), version)
    assert (f.get("release_bug") == "bnb-skip-modules") is hit


def test_unsloth_dynamic_names_and_configs():
    from vllm_kb.engine.kb.models import model_facts
    from vllm_kb.engine.kb.quant_config import config_quant_facts
    kb = load()
    markers = kb.doc("models.yaml").data["quantized_markers"]
    assert model_facts("unsloth/Mistral-Small-24B-Instruct-2501-unsloth-bnb-4bit", kb.models, markers).get("quant_bnb_skip") == "dynamic"
    assert "quant_bnb_skip" not in model_facts("unsloth/Meta-Llama-3.1-8B-Instruct-bnb-4bit", kb.models, markers)
    facts: dict = {}
    config_quant_facts(facts, {"quantization_config": {"quant_method": "bitsandbytes", "load_in_4bit": True,
                                                       "llm_int8_skip_modules": ["lm_head", "model.layers.1.mlp"]}})
    assert facts["quant_bnb_skip"] == ["model.layers.1.mlp"]
    facts = {}
    config_quant_facts(facts, {"quantization_config": {"quant_method": "bitsandbytes",
                                                       "llm_int8_skip_modules": ["lm_head", "vision_tower"]}})
    assert "quant_bnb_skip" not in facts  # one-part names: every release with the skip list matches them
