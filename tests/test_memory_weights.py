"""What a quantized checkpoint leaves in 16 bits beyond the embeddings and LM head."""
from __future__ import annotations

from vllm_kb.engine.check.memory.weights import uncertain_weights_bytes, vision_params, weight_width, weights_bytes
from vllm_kb.engine.kb import knowledge, models


def facts(name: str) -> dict:
    kb = knowledge.load()
    return models.model_facts(name, kb.models, kb.doc("models.yaml").data.get("quantized_markers", []))


def test_a_quantized_vlm_keeps_its_vision_tower_in_16_bits():
    # AutoAWQ/AutoGPTQ quantize the language model only (vLLM's qwen2_vl.py drops a GPTQ config for
    # the tower, citing Qwen2-VL-2B-Instruct-GPTQ-Int4): the ViT's 0.67B weigh 2 bytes, not 0.53
    awq = facts("Qwen/Qwen2.5-VL-7B-Instruct-AWQ")
    assert awq["quant_method"] == "awq" and vision_params(awq, {}) == 0.67e9
    text_only = {**awq, "vision_params_b": None}
    extra = weights_bytes(awq, {}) - weights_bytes(text_only, {})
    assert abs(extra - 0.67e9 * (2.0 - 0.53)) < 1e6
    assert 6.3 < weights_bytes(awq, {}) / 2**30 < 6.7


def test_vllm_quantizing_a_16_bit_vlm_itself_takes_the_tower_too():
    plain = facts("Qwen/Qwen2.5-VL-7B-Instruct")
    assert not plain.get("quant_method")
    assert vision_params(plain, {"quantization": "fp8"}) == 0.0
    assert vision_params(plain, {}) == 0.67e9  # but nothing is quantized, so nothing changes
    assert weights_bytes(plain, {}) == plain["params_b"] * 1e9 * 2


def test_a_text_only_size_of_a_multimodal_family_has_no_tower():
    one = facts("google/gemma-3-1b-it")
    assert not one["multimodal"] and vision_params(one, {}) == 0.0
    fp8 = facts("RedHatAI/gemma-3-27b-it-FP8-dynamic")
    assert fp8["multimodal"] and vision_params(fp8, {}) == 0.42e9


def test_gptq_and_bitsandbytes_at_8_bits_weigh_a_byte_a_weight():
    # Qwen publishes -GPTQ-Int8 beside -GPTQ-Int4: the same method, twice the bytes
    int8, int4 = facts("Qwen/Qwen2.5-14B-Instruct-GPTQ-Int8"), facts("Qwen/Qwen2.5-14B-Instruct-GPTQ-Int4")
    assert weight_width({}, int8) == "int8" and weight_width({}, int4) == "4bit"
    assert 14.5 < weights_bytes(int8, {}) / 2**30 < 16 and weights_bytes(int4, {}) / 2**30 < 10
    assert uncertain_weights_bytes(int8, {}, "int8") == 0.0  # GPTQ quantizes attention too
    kb = knowledge.load()
    markers = kb.doc("models.yaml").data.get("quantized_markers", [])
    bnb8 = models.model_facts("me/Qwen2.5-7B-Instruct", kb.models, markers, config={
        "architectures": ["Qwen2ForCausalLM"], "quantization_config": {"quant_method": "bitsandbytes", "load_in_8bit": True}})
    assert bnb8["quant_bits"] == 8 and weight_width({}, bnb8) == "int8"
    # the config's bits win over a name that says otherwise; AWQ is 4-bit whatever the name
    four = models.model_facts("me/Qwen2.5-7B-Instruct-Int8", kb.models, markers, config={
        "architectures": ["Qwen2ForCausalLM"], "quantization_config": {"quant_method": "gptq", "bits": 4}})
    assert weight_width({}, four) == "4bit"
    assert weight_width({}, facts("someone/Qwen2.5-7B-Instruct-AWQ-8bit")) == "4bit"


def test_the_rope_table_of_every_position_is_held_on_every_gpu():
    # vLLM builds cos/sin for all max_position_embeddings positions, whatever max_model_len is:
    # Llama 4 Scout's 10,485,760 x 128 x 2 bytes = 2.5 GiB per GPU at any TP
    from vllm_kb.engine.check.memory.weights_stages import rope_cache_bytes, stage_weights_bytes

    scout = facts("meta-llama/Llama-4-Scout-17B-16E-Instruct")
    assert rope_cache_bytes(scout, {}) == 10485760 * 128 * 2
    body = weights_bytes(scout, {})
    tp4 = stage_weights_bytes(scout, {}, body, 4, 1)[0]
    assert abs(tp4 - body / 4 - 2.5 * 2**30) < 0.01 * 2**30
    llama = facts("meta-llama/Llama-3.1-8B-Instruct")
    assert rope_cache_bytes(llama, {}) < 0.04 * 2**30
    assert rope_cache_bytes(facts("deepseek-ai/DeepSeek-V3"), {}) == 163840 * 64 * 2  # the rope part of MLA


def test_a_linear_rope_scaling_multiplies_the_table():
    # LinearScalingRotaryEmbedding builds max_position_embeddings x factor positions; Gemma 3's local
    # layers add an unscaled table: 12B at head_dim 256 holds 0.56 GiB of them
    from vllm_kb.engine.check.memory.weights_stages import rope_cache_bytes

    g12 = facts("google/gemma-3-12b-it")
    assert g12["rope_cache_positions"] == 9 * 131072
    assert abs(rope_cache_bytes(g12, {}) / 2**30 - 0.5625) < 1e-9
    kb = knowledge.load()
    markers = kb.doc("models.yaml").data.get("quantized_markers", [])
    cfg = {"architectures": ["LlamaForCausalLM"], "num_hidden_layers": 30, "hidden_size": 4096, "num_attention_heads": 32,
           "max_position_embeddings": 16384, "rope_scaling": {"type": "linear", "factor": 4.0}}
    own = models.model_facts("me/deepseek-coder-like", kb.models, markers, config=cfg)
    assert own["rope_cache_positions"] == 65536
    yarn = dict(cfg, rope_scaling={"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096})
    assert "rope_cache_positions" not in models.model_facts("me/yarn-model", kb.models, markers, config=yarn)


def test_qwen38_27b_is_the_qwen35_hybrid_with_its_tower():
    # vllm-project/recipes Qwen3.8-27B.yaml: Qwen3_5ForConditionalGeneration, 48 of 64 layers linear
    # attention, a vision tower; the 2.4T-A95B sibling is a text-only MoE, not these shapes
    f = facts("Qwen/Qwen3.8-27B-FP8")
    assert f["family"] == "qwen3-5" and f["architecture"] == "Qwen3_5ForConditionalGeneration"
    assert (f["num_attention_layers"], f["ssm"]["layers"], f["params_b"], f["vision_params_b"]) == (16, 48, 27.36, 0.46)
    assert facts("Qwen/Qwen3.8-2.4T-A95B").get("family") != "qwen3-5"


def test_an_mtp_draft_loads_its_own_layer_inside_model_loading():
    # gpu_model_runner.load_model loads the drafter inside the same DeviceMemoryProfiler; the MTP drafter
    # shares the target's embedding and head, keeping fc (2h x h) and one gated full-attention decoder layer
    from vllm_kb.engine.check.memory.weights_stages import mtp_draft_bytes
    f = facts("Qwen/Qwen3.8-27B-FP8")
    mtp = {"speculative_config": {"method": "mtp", "num_speculative_tokens": 3}}
    h = 5120
    layer = (2 * h * 24 * 256 + 2 * h * 4 * 256) + h * 24 * 256 + 3 * h * 17408
    assert mtp_draft_bytes(f, mtp, 2) == (layer + 2 * h * h) * 1.0 / 2
    assert mtp_draft_bytes(f, {"speculative_config": '{"method": "qwen3_5_mtp"}'}, 1) == layer + 2 * h * h
    assert mtp_draft_bytes(f, {"speculative_config": {"method": "ngram"}}, 2) == 0.0
    assert mtp_draft_bytes(f, {}, 2) == 0.0
    # under modelopt_fp4 qwen3_5_mtp.py builds fc unquantized (NVFP4 checkpoints store it in BF16)
    fp4 = facts("Inferact/Qwen3.8-27B-NVFP4")
    assert mtp_draft_bytes(fp4, mtp, 1) == layer * 0.5625 + 2 * h * h * 2.0
    assert mtp_draft_bytes(facts("deepseek-ai/DeepSeek-V3"), mtp, 8) == 0.0  # another drafter, not read here


def test_qwen38_27b_fp8_weights_per_gpu_as_logged():
    # vllm-project/recipes PR 810 (0.26.1rc1 dev, 2 x RTX 5090, TP 2): "weights/GPU 14.28 GiB" for the FP8 build
    from vllm_kb.engine.check import memory
    from vllm_kb.engine.kb import hardware
    kb = knowledge.load()
    e = memory.estimate(facts("Qwen/Qwen3.8-27B-FP8"), dict(hardware.parse_spec("RTX-5090 x2", kb.gpus).gpu),
                        {"tensor_parallel_size": 2, "max_model_len": 262144}, vllm_version="0.26.0")
    assert abs(e["weights_per_gpu_gib"] - 14.28) / 14.28 < 0.03
