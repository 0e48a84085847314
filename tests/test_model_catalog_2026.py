"""Families of the 2025-26 releases that the catalog named wrongly or not at all (helper catalog3):
each name gets its own class and kind (MoE, MLA, multimodal), never a neighbour family's facts or
another model's shapes; where no config.json was read the dimensions stay unknown."""
from __future__ import annotations

import pytest
from vllm_kb.engine.kb import knowledge, models

KB = knowledge.load()
DATA = KB.doc("models.yaml").data


def facts(name: str) -> dict:
    return models.model_facts(name, KB.models, DATA["quantized_markers"], publishers=DATA["publishers"], identity=DATA)


@pytest.mark.parametrize("name,family,architecture,moe,multimodal", [
    ("XiaomiMiMo/MiMo-V2-Flash", "mimo-v2-flash", "MiMoV2FlashForCausalLM", True, False),
    ("stepfun-ai/Step-3.5-Flash", "step-3.5-flash", "Step3p5ForCausalLM", True, False),
    ("inclusionAI/Ling-flash-2.0", "ling-2.0", None, True, False),
    ("inclusionAI/Ring-mini-2.0", "ling-2.0", None, True, False),
    ("LiquidAI/LFM2-1.2B", "lfm2", "Lfm2ForCausalLM", False, False),
    ("LiquidAI/LFM2-8B-A1B", "lfm2", "Lfm2MoeForCausalLM", True, False),
    ("LiquidAI/LFM2-VL-1.6B", "lfm2", "Lfm2VlForConditionalGeneration", False, True),
    ("PaddlePaddle/PaddleOCR-VL", "paddleocr-vl", "PaddleOCRVLForConditionalGeneration", False, True),
    ("rednote-hilab/dots.ocr", "dots-ocr", "DotsOCRForCausalLM", False, True),
    # Qwen3-Omni is its own MoE class, not the dense Qwen-VL family's facts
    ("Qwen/Qwen3-Omni-30B-A3B-Instruct", "qwen3-omni", "Qwen3OmniMoeForConditionalGeneration", True, True),
    ("Qwen/Qwen3-Omni-30B-A3B-Thinking", "qwen3-omni", "Qwen3OmniMoeForConditionalGeneration", True, True),
])
def test_family_class_and_kind(name, family, architecture, moe, multimodal):
    short = models._org_joined(models._short_name(name), KB.models, DATA["publishers"])
    assert models.family_of(short, KB.models)["id"] == family
    f = facts(name)
    assert (f.get("architecture"), f["moe"], f["multimodal"]) == (architecture, moe, multimodal)
    # no config.json read for these: no layer count, so no KV size or TP split from borrowed shapes
    assert f.get("num_hidden_layers") is None


def test_neighbours_keep_their_families():
    assert facts("Qwen/Qwen2.5-Omni-7B")["architecture"] == "Qwen2_5OmniModel"
    assert facts("Qwen/Qwen-VL-Chat")["moe"] is False
    assert facts("rednote-hilab/dots.llm1.inst").get("architecture") != "DotsOCRForCausalLM"
    assert facts("inclusionAI/Ring-mini-linear-2.0").get("family") != "ling-2.0"


def test_mistral_large_3_is_not_large_2s_dense_shapes():
    f = facts("mistralai/Mistral-Large-3-675B-Instruct-2512")
    assert (f["architecture"], f["model_type"], f["moe"], f["mla"]) == ("MistralLarge3ForCausalLM", "deepseek_v3", True, True)
    assert f["params_b"] == 675 and f.get("num_hidden_layers") is None and f.get("num_attention_heads") is None
    # the 2512 upload is FP8 blocks through compressed-tensors; a BF16 upload is not
    assert (f["quantized"], f["quant_method"], f.get("quant_block")) == (True, "compressed-tensors", [128, 128])
    assert not facts("mistralai/Mistral-Large-3-675B-Instruct-2512-BF16").get("quant_method")
    # Mistral Large 2 (2407 / 2411) keeps its own 88-layer dense shapes
    large2 = facts("mistralai/Mistral-Large-Instruct-2411")
    assert (large2["architecture"], large2["num_hidden_layers"], large2["moe"]) == ("MistralForCausalLM", 88, False)


def test_kimi_k25_is_its_own_multimodal_class():
    f = facts("moonshotai/Kimi-K2.5")
    assert (f["architecture"], f["model_type"], f["multimodal"]) == ("KimiK25ForConditionalGeneration", "kimi_k25", True)
    assert (f["num_attention_heads"], f["num_experts"], f["quant_method"]) == (64, 384, "compressed-tensors")
    # K2 and K2-Thinking stay text-only DeepseekV3ForCausalLM
    for name in ("moonshotai/Kimi-K2-Instruct", "moonshotai/Kimi-K2-Thinking"):
        assert (facts(name)["architecture"], facts(name)["multimodal"]) == ("DeepseekV3ForCausalLM", False)


@pytest.mark.parametrize("name,heads,kv,experts,top_k", [
    ("XiaomiMiMo/MiMo-V2-Flash", 64, None, 256, 8),
    ("nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", 32, 2, 128, 6),
    ("Qwen/Qwen3.5-0.8B", 8, 2, None, None),
])
def test_head_and_expert_counts_without_layer_shapes(name, heads, kv, experts, top_k):
    # L1 and the expert split read these; no layer count, so no KV size from half-known shapes
    f = facts(name)
    assert (f["num_attention_heads"], f.get("num_key_value_heads")) == (heads, kv)
    assert (f.get("num_experts"), f.get("num_experts_per_tok")) == (experts, top_k)
    assert f.get("num_hidden_layers") is None and f.get("hidden_size") is None
    assert models.tp_divides(f, 8) and not models.tp_divides(f, 3)


def test_head_counts_stay_with_their_size():
    # other Gemma 4 sizes and Nemotron 3 Super keep unknown heads, never a neighbour's (E4B has its own:
    # tests/test_model_catalog_2026b.py)
    for name in ("google/gemma-4-E2B-it", "nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-FP8",
                 "Qwen/Qwen3.5-9B", "Qwen/Qwen3.6-0.8B"):
        assert facts(name).get("num_attention_heads") is None, name


@pytest.mark.parametrize("name,layers,heads,kv,experts", [
    ("OpenGVLab/InternVL3_5-8B", 36, 32, 8, None),          # Qwen3-8B
    ("OpenGVLab/InternVL3_5-14B", 40, 40, 8, None),         # Qwen3-14B
    ("OpenGVLab/InternVL3_5-38B", 64, 64, 8, None),         # Qwen3-32B
    ("OpenGVLab/InternVL3_5-30B-A3B", 48, 32, 4, 128),      # Qwen3-30B-A3B
    ("OpenGVLab/InternVL3_5-241B-A28B", 94, 64, 4, 128),    # Qwen3-235B-A22B
])
def test_internvl35_language_model_is_its_qwen3(name, layers, heads, kv, experts):
    f = facts(name)
    assert (f["num_hidden_layers"], f["num_attention_heads"], f["num_key_value_heads"], f.get("num_experts")) == (layers, heads, kv, experts)
    assert f["multimodal"] and f["architecture"] == "InternVLChatModel"


def test_internvl35_sizes_without_a_matching_qwen3_stay_unknown():
    # 1B/2B/4B language counts are not the tied Qwen3 sizes'; the GPT-OSS size is another class
    for name in ("OpenGVLab/InternVL3_5-4B", "OpenGVLab/InternVL3_5-GPT-OSS-20B-A4B-Preview"):
        assert facts(name).get("num_hidden_layers") is None, name
    # InternVL3 keeps its Qwen2.5 backbone
    assert facts("OpenGVLab/InternVL3-8B")["num_hidden_layers"] == 28


def test_qwen3_coder_next_is_qwen3_next_not_dense_qwen3():
    for name in ("Qwen/Qwen3-Coder-Next", "RedHatAI/Qwen3-Coder-Next-NVFP4"):
        f = facts(name)
        assert (f["family"], f["architecture"], f["moe"]) == ("qwen3-next", "Qwen3NextForCausalLM", True)
        assert (f["num_hidden_layers"], f["num_attention_heads"], f["num_experts"]) == (48, 16, 512)
    # the Qwen3-Coder MoE sizes keep Qwen3-MoE's class
    assert facts("Qwen/Qwen3-Coder-30B-A3B-Instruct")["architecture"] == "Qwen3MoeForCausalLM"


@pytest.mark.parametrize("name,context", [
    ("moonshotai/Kimi-K2-Instruct", 131072),
    ("moonshotai/Kimi-K2-Base", 131072),
    ("moonshotai/Kimi-K2-Instruct-0905", None),  # released with a longer context: not 131072, not read here
    ("moonshotai/Kimi-K2-Thinking", None),
    ("moonshotai/Kimi-K2.5", 262144),  # vLLM 0.20.2 logs it (InferenceX#1587)
])
def test_kimi_k2_context_is_the_original_k2s_only(name, context):
    from vllm_kb.engine.kb.knowledge import load
    from vllm_kb.engine.kb.models import model_facts
    assert model_facts(name, load().models, []).get("max_context") == context
