"""Sizes of the 2026 releases people deploy that the catalog knew by class only (helper catalog4):
DeepSeek-V4 Flash / Pro and MiniMax-M3 get their published totals, so the weights are sized and a
launch whose weights cannot fit is told so; their layer shapes (compressed or block-sparse KV) stay
unknown, so no KV size is made up. Qwen3.8-Flash-Next no longer borrows dense Qwen3's class."""
from __future__ import annotations

import pytest
from vllm_kb.engine.check.memory import estimate
from vllm_kb.engine.check.memory.weights import weight_width, weights_bytes
from vllm_kb.engine.kb import knowledge, models

KB = knowledge.load()
DATA = KB.doc("models.yaml").data


def facts(name: str) -> dict:
    return models.model_facts(name, KB.models, DATA["quantized_markers"], publishers=DATA["publishers"], identity=DATA)


@pytest.mark.parametrize("name,total,active,experts,expert_dtype", [
    ("deepseek-ai/DeepSeek-V4-Flash", 284, 13, 256, "fp4"),
    ("deepseek-ai/DeepSeek-V4-Flash-0731", 284, 13, 256, "fp4"),
    ("deepseek-ai/DeepSeek-V4-Flash-Base", 284, 13, 256, "fp8"),
    ("deepseek-ai/DeepSeek-V4-Pro", 1600, 49, 384, "fp4"),
    ("deepseek-ai/DeepSeek-V4-Pro-0813", 1600, 49, 384, "fp4"),
])
def test_deepseek_v4_sizes(name, total, active, experts, expert_dtype):
    f = facts(name)
    assert (f["family"], f["architecture"], f["moe"]) == ("deepseek-v4", "DeepseekV4ForCausalLM", True)
    assert (f["params_b"], f["active_params_b"], f["num_experts"], f["num_experts_per_tok"]) == (total, active, experts, 6)
    assert (f["quantized"], f["quant_method"], f["quant_expert_dtype"]) == (True, "fp8", expert_dtype)
    # compressed sparse attention: the layer shapes would size a KV cache the model does not have
    assert f.get("num_hidden_layers") is None and f.get("hidden_size") is None


def test_deepseek_v4_weights_take_the_experts_width():
    flash, base = facts("deepseek-ai/DeepSeek-V4-Flash"), facts("deepseek-ai/DeepSeek-V4-Flash-Base")
    assert weight_width({}, flash) == "mxfp4" and weight_width({}, base) == "fp8"
    assert weight_width({"quantization": "fp8"}, flash) == "mxfp4"
    # the ~160 GB MXFP4 + FP8 upload, counted a little low (never above it: no false L16)
    assert 140e9 < weights_bytes(flash, {}) <= 160e9
    assert weights_bytes(base, {}) == pytest.approx(284e9)
    # V4.1 stays unsized
    assert not facts("deepseek-ai/DeepSeek-V4.1-Flash").get("params_b")


def test_deepseek_v4_pro_context():
    assert facts("deepseek-ai/DeepSeek-V4-Pro")["max_context"] == 1048576
    assert facts("deepseek-ai/DeepSeek-V4-Flash").get("max_context") is None


def test_deepseek_v4_flash_fits_four_h100s_not_two():
    f = facts("deepseek-ai/DeepSeek-V4-Flash")
    h100 = {"name": "H100-80GB", "memory_gib": 79.6, "compute_capability": 9.0, "count": 4}
    four = estimate(f, h100, {"tensor_parallel_size": 4}, "0.30.0")
    assert four["fits"] is True and "kv_cache_gib" not in four
    two = estimate(f, dict(h100, count=2), {"tensor_parallel_size": 2}, "0.30.0")
    assert two["fits"] is False


def test_minimax_m3():
    f = facts("MiniMaxAI/MiniMax-M3")
    assert (f["family"], f["architecture"], f["model_type"]) == ("minimax", "MiniMaxM3SparseForConditionalGeneration", "minimax_m3_vl")
    assert (f["moe"], f["multimodal"], f["params_b"], f["active_params_b"]) == (True, True, 428, 23)
    assert (f["num_attention_heads"], f["num_key_value_heads"], f["num_experts"], f["num_experts_per_tok"]) == (64, 4, 128, 4)
    assert f.get("num_hidden_layers") is None and not f.get("quant_method")
    # the MXFP8 upload is 8-bit by its name; M2.x keep their own shapes
    assert weight_width({}, facts("MiniMaxAI/MiniMax-M3-MXFP8")) == "fp8"
    m25 = facts("MiniMaxAI/MiniMax-M2.5")
    assert (m25["architecture"], m25["params_b"], m25["num_hidden_layers"]) == ("MiniMaxM2ForCausalLM", 229, 62)


@pytest.mark.parametrize("name", ["Qwen/Qwen3.8-Flash-Next", "Qwen/Qwen3.8-Next-Flash"])
def test_qwen38_flash_next_is_not_dense_qwen3(name):
    f = facts(name)
    assert f["family"] == "qwen3-8-flash-next"
    assert f.get("architecture") is None and f.get("num_hidden_layers") is None and f.get("params_b") is None
    assert (f["moe"], f["multimodal"], f["max_context"]) == (True, True, 262144)
    assert facts("Qwen/Qwen3.8-27B")["architecture"] == "Qwen3_5ForConditionalGeneration"


def test_kimi_k26_is_k25s_multimodal_int4_class():
    f = facts("moonshotai/Kimi-K2.6")
    assert (f["architecture"], f["model_type"], f["multimodal"], f["max_context"]) == (
        "KimiK25ForConditionalGeneration", "kimi_k25", True, 262144)
    # INT4 routed experts (~595 GB), not K2-Instruct's FP8 terabyte: 8 x H200 holds it
    assert (f["quant_method"], f["quant_scheme"], f["quant_experts_only"]) == ("compressed-tensors", "wna16", True)
    assert facts("moonshotai/Kimi-K2-Instruct")["quant_method"] == "fp8"
    assert facts("moonshotai/Kimi-K2-Instruct")["architecture"] == "DeepseekV3ForCausalLM"


@pytest.mark.parametrize("name", ["deepseek-ai/DeepSeek-V4-Flash-BF16", "deepseek-ai/DeepSeek-V3.2-BF16", "moonshotai/Kimi-K2.5-BF16"])
def test_bf16_conversion_of_a_quantized_release_is_sized_16_bit(name):
    f = facts(name)
    assert f["quantized"] is False and weight_width({}, f) == "bf16"
    assert weight_width({"quantization": "fp8"}, f) == "fp8"  # vLLM quantizing it online


def test_glm53_flash_is_sized_as_its_fp8_upload_without_a_sure_method():
    f = facts("zai-org/GLM-5.3-Flash")
    assert (f["family"], f["architecture"], f["moe"], f["multimodal"]) == ("glm-5.3-flash", "Glm5NextForConditionalGeneration", True, True)
    assert (f["params_b"], f["active_params_b"], f["max_context"]) == (321, 18, 1048576)
    assert (f["quantized"], f["quant_method"]) == (True, "fp8") and weight_width({}, f) == "fp8"
    # the config.json's method is unread: a --quantization flag gets no mismatch verdict from it
    assert f["quant_source"] == "name" and "quant_method_unread" not in f
    assert f.get("num_hidden_layers") is None
    # NVIDIA's NVFP4 upload, served with --quantization modelopt_mixed (FP8 dense + NVFP4 experts)
    fp4 = facts("nvidia/GLM-5.3-Flash-FP4-Local")
    assert weight_width({"quantization": "modelopt_mixed"}, fp4) == "fp4"
    assert weight_width({"quantization": "modelopt_mixed"}, facts("zai-org/GLM-5.3-Flash")) == "fp8"
    bf16 = facts("someone/GLM-5.3-Flash-BF16")
    assert bf16["params_b"] == 321 and not bf16.get("quantized") and weight_width({}, bf16) == "bf16"
    # GLM-5 / 5.1 keep their own 744B MLA facts
    assert facts("zai-org/GLM-5.1")["params_b"] == 744


@pytest.mark.parametrize("name,params,heads", [("google/gemma-4-E2B-it", 5.1, None), ("google/gemma-4-E4B-it", 8.0, 8)])
def test_gemma4_small_sizes(name, params, heads):
    f = facts(name)
    assert (f["family"], f["architecture"], f["moe"], f["multimodal"]) == ("gemma4", "Gemma4ForConditionalGeneration", False, True)
    assert (f["params_b"], f["max_context"], f.get("num_attention_heads")) == (params, 131072, heads)
    # KV shared across the last layers: no layer count, no KV size
    assert f.get("num_hidden_layers") is None
    assert facts("google/gemma-4-31B-it")["num_hidden_layers"] == 60


def test_mistral_medium_35_is_a_dense_fp8_vision_model():
    f = facts("mistralai/Mistral-Medium-3.5-128B")
    assert (f["architecture"], f["multimodal"], f["moe"], f["params_b"], f["max_context"]) == (
        "Mistral3ForConditionalGeneration", True, False, 128, 262144)
    # ~134 GB of FP8 (not 256 GB of BF16), its method unread: no mismatch verdict on --quantization
    assert (weight_width({}, f), f["quant_source"]) == ("fp8", "name")
    assert weight_width({}, facts("RecViking/Mistral-Medium-3.5-128B-NVFP4")) == "fp4"
    # the EAGLE head and Mistral Small 4 keep their own facts
    assert facts("mistralai/Mistral-Medium-3.5-128B-Eagle").get("multimodal") is False
    assert facts("mistralai/Mistral-Small-4-119B-2603")["params_b"] == 119
