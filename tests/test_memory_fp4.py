"""4-bit checkpoints sized from their quantization_config: a ModelOpt NVFP4 export says FP4 in
quant_algo under quant_method "modelopt" (vLLM resolves it to modelopt_fp4), llm-compressor's NVFP4
and MXFP4 presets are compressed-tensors with 4-bit float weights, and an integer 4-bit checkpoint's
group size sets its scale overhead (eval59: a modelopt NVFP4 MoE sized as FP8 gave a false L16)."""
from __future__ import annotations

import pytest

from vllm_kb.engine.check.memory.weights import weight_width, weights_bytes
from vllm_kb.engine.kb.model_config import config_scalars

MOE = {"name": "./MiniMax-M2.1-NVFP4", "params_b": 228.7, "hidden_size": 3072, "vocab_size": 200064,
       "num_hidden_layers": 62, "num_attention_heads": 48, "num_key_value_heads": 8, "head_dim": 128}


def read(quant: dict) -> dict:
    facts: dict = dict(MOE)
    config_scalars(facts, {"quantization_config": quant}, None)
    return facts


@pytest.mark.parametrize("quant", [
    {"quant_method": "modelopt", "quant_algo": "NVFP4", "group_size": 16, "exclude_modules": ["lm_head"]},
    {"quant_method": "modelopt", "quantization": {"quant_algo": "NVFP4", "kv_cache_quant_algo": None}},
])
def test_a_modelopt_nvfp4_export_is_modelopt_fp4_at_about_056_bytes(quant):
    facts = read(quant)
    assert facts["quant_method"] == "modelopt_fp4" and weight_width({}, facts) == "fp4"
    per = weights_bytes(facts, {}) / (MOE["params_b"] * 1e9)
    assert 0.56 < per < 0.6  # 4 bits + an FP8 scale per 16; embeddings and LM head at 16 bits


def test_a_modelopt_fp8_export_stays_fp8():
    facts = read({"quant_method": "modelopt", "quant_algo": "FP8"})
    assert facts["quant_method"] == "modelopt" and weight_width({}, facts) == "fp8"


def _ct(num_bits: int, kind: str, group: int, acts: bool) -> dict:
    w = {"num_bits": num_bits, "type": kind, "strategy": "tensor_group" if group == 16 else "group", "group_size": group}
    g = {"targets": ["Linear"], "weights": w, "input_activations": dict(w) if acts else None}
    return {"quant_method": "compressed-tensors", "config_groups": {"group_0": g}, "ignore": ["lm_head"]}


@pytest.mark.parametrize("quant,scheme,width", [
    (_ct(4, "float", 16, True), "nvfp4", "fp4"),     # NVFP4 (W4A4)
    (_ct(4, "float", 16, False), "nvfp4", "fp4"),    # NVFP4A16
    (_ct(4, "float", 32, False), "mxfp4", "mxfp4"),  # MXFP4
    (_ct(4, "int", 128, False), "wna16", "4bit"),    # W4A16
])
def test_compressed_tensors_4_bit_schemes_are_4_bit(quant, scheme, width):
    facts = read(quant)
    assert facts["quant_scheme"] == scheme and weight_width({}, facts) == width
    assert weights_bytes(facts, {}) / (MOE["params_b"] * 1e9) < 0.65


@pytest.mark.parametrize("group,low,high", [(128, 0.529, 0.531), (64, 0.548, 0.551), (32, 0.587, 0.591), (-1, 0.509, 0.512)])
def test_an_integer_4_bit_checkpoints_group_size_sets_its_overhead(group, low, high):
    facts = read({"quant_method": "gptq", "bits": 4, "group_size": group})
    dense = {**facts, "hidden_size": None}  # every weight at the quantized width
    assert low < weights_bytes(dense, {}) / (MOE["params_b"] * 1e9) < high


def test_modelopt_hf_quant_config_json_beside_config_json(tmp_path):
    # ModelOpt before 0.31 wrote the quantization apart, without quant_method: vLLM 0.10.1+ reads it
    # when config.json has none, and takes producer modelopt + quant_algo NVFP4 as modelopt_fp4
    import json

    from vllm_kb.engine.kb.checkpoint import read_checkpoint

    folder = tmp_path / "ckpt"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({"architectures": ["LlamaForCausalLM"], "torch_dtype": "bfloat16"}))
    (folder / "hf_quant_config.json").write_text(json.dumps({
        "producer": {"name": "modelopt", "version": "0.27.1"},
        "quantization": {"quant_algo": "NVFP4", "kv_cache_quant_algo": "FP8", "group_size": 16,
                         "exclude_modules": ["lm_head", "model.layers.0.self_attn*"]}}))
    ck = read_checkpoint(tmp_path, "ckpt")
    facts: dict = dict(MOE)
    config_scalars(facts, ck.config, None)
    assert facts["quant_method"] == "modelopt_fp4" and facts["quant_kv_cache"] == "fp8"
    assert facts["quant_unquantized"] == {"attention": [0]} and weight_width({}, facts) == "fp4"


def test_hf_quant_config_json_does_not_override_config_json(tmp_path):
    import json

    from vllm_kb.engine.kb.checkpoint import read_checkpoint

    folder = tmp_path / "ckpt"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({"quantization_config": {"quant_method": "fp8"}}))
    (folder / "hf_quant_config.json").write_text(json.dumps({"producer": {"name": "modelopt"}, "quantization": {"quant_algo": "NVFP4"}}))
    assert read_checkpoint(tmp_path, "ckpt").config["quantization_config"] == {"quant_method": "fp8"}


@pytest.mark.parametrize("facts", [read({"quant_method": "modelopt", "quant_algo": "NVFP4"}),
                                   {**MOE, "name": "Qwen/Qwen3.6-35B-A3B-NVFP4", "quant_method": "nvfp4"}])
def test_quantization_modelopt_on_the_command_line_keeps_an_nvfp4_checkpoint_fp4(facts):
    # vLLM lets the checkpoint's quant_algo override --quantization modelopt (ModelOptNvFp4Config.
    # override_quantization_method; heldout73: a club-3090 5090 log sized as FP8 left -7.8 GiB of KV)
    assert weight_width({"quantization": "modelopt"}, facts) == "fp4"


def test_quantization_modelopt_on_an_fp8_checkpoint_stays_fp8():
    assert weight_width({"quantization": "modelopt"}, read({"quant_method": "modelopt", "quant_algo": "FP8"})) == "fp8"
    assert weight_width({"quantization": "modelopt"}, {"name": "some/model"}) == "fp8"


@pytest.mark.parametrize("version,kv,want", [
    ("0.20.1", None, 1.0), ("0.14.0", "auto", 1.0),   # auto resolves to the checkpoint's fp8_e4m3
    ("0.13.0", None, 2.0),                            # before resolve_kv_cache_dtype_string: the model's dtype
    ("0.20.1", "bfloat16", 2.0),                      # a dtype the site names stays
])
def test_a_modelopt_fp8_kv_scheme_sizes_the_cache_at_one_byte_from_0_14(version, kv, want):
    # arg_utils resolve_kv_cache_dtype_string (0.14.0+): kv_cache_dtype "auto" takes a ModelOpt checkpoint's
    # kv_cache_scheme / kv_cache_quant_algo FP8 (heldout36: NVIDIA's Gemma-4-31B NVFP4 sized at BF16 KV)
    from vllm_kb.engine.check.memory.kv import checkpoint_kv_dtype, kv_element_bytes

    facts = read({"quant_method": "modelopt", "quantization": {"quant_algo": "NVFP4", "kv_cache_quant_algo": "FP8"}})
    engine = checkpoint_kv_dtype({"kv_cache_dtype": kv} if kv else {}, facts, version)
    assert kv_element_bytes(engine, facts) == want
    plain = read({"quant_method": "modelopt", "quantization": {"quant_algo": "NVFP4", "kv_cache_quant_algo": None}})
    assert kv_element_bytes(checkpoint_kv_dtype({}, plain, version), plain) == 2.0


def test_a_cyankiwi_awq_upload_is_compressed_tensors_in_groups_of_32():
    # eugr/spark-vllm-docker#88: cyankiwi/MiniMax-M2.5-REAP-139B-A10B-AWQ-4bit loads through compressed-tensors'
    # WNA16 MoE method, "group_size=32"; heldout73's MiniMax-M2.7 rows on two DGX Sparks were sized as AutoAWQ's 128
    from vllm_kb.engine.kb import knowledge, models

    kb = knowledge.load()
    facts = models.model_facts("cyankiwi/MiniMax-M2.7-AWQ-4bit", kb.models, kb.doc("models.yaml").data["quantized_markers"])
    assert (facts["quant_method"], facts["quant_scheme"], facts["quant_group_size"]) == ("compressed-tensors", "wna16", 32)
    assert weight_width({}, facts) == "4bit"
    assert 0.585 < weights_bytes({**facts, "hidden_size": None}, {}) / (facts["params_b"] * 1e9) < 0.595
