"""L75 on a vision tower built quantized (engine/check/startup_quant_vision.py): MiniCPM-V 2.6 AWQ's
SigLIP MLP (4304 wide) refused by AWQ-Marlin / the AWQ kernel even at TP 1 (vllm#11128), only in
the releases that build the tower with the checkpoint's quant_config and before vLLM reads the
stored dtypes, and never where the config leaves the tower out."""
from __future__ import annotations

import json
from pathlib import Path

import yaml

from vllm_kb.engine.check import startup_quant_vision as v
from vllm_kb.engine.kb.model_config import config_scalars
from vllm_kb.engine.kb.vision_config import vision_from_config

ROOT = Path(__file__).resolve().parents[1]
TABLE = yaml.safe_load((ROOT / "knowledge" / "vllm" / "quant_alignment.yaml").read_text())

CONFIG = {"architectures": ["MiniCPMV"], "model_type": "minicpmv", "version": 2.6, "hidden_size": 3584,
          "intermediate_size": 18944, "num_hidden_layers": 28, "num_attention_heads": 28, "num_key_value_heads": 4,
          "max_position_embeddings": 32768, "vocab_size": 151666, "torch_dtype": "float16", "query_num": 64,
          "vision_config": {"model_type": "siglip", "hidden_size": 1152, "intermediate_size": 4304,
                            "num_attention_heads": 16, "num_hidden_layers": 27, "patch_size": 14},
          "quantization_config": {"quant_method": "awq", "bits": 4, "group_size": 128, "zero_point": True, "version": "gemm"}}
MODEL = {"architecture": "MiniCPMV", "quant_method": "awq", "quant_group_size": 128,
         "vision_mlp": {"hidden_size": 1152, "intermediate_size": 4304}}


def test_the_facts_come_from_config_json():
    assert vision_from_config(CONFIG)["vision_mlp"] == {"hidden_size": 1152, "intermediate_size": 4304}
    assert "vision_mlp" not in vision_from_config({**CONFIG, "version": None})  # 2.0's timm tower: not read
    facts: dict = {}
    config_scalars(facts, {**CONFIG, "quantization_config": {**CONFIG["quantization_config"],
                                                             "modules_to_not_convert": ["vpm", 7]}}, None)
    assert facts["quant_skip_modules"] == ["vpm"]
    facts = {}
    config_scalars(facts, {**CONFIG, "quantization_config": {"quant_method": "gptq", "bits": 4, "group_size": 128,
                                                             "dynamic": {"-:vpm.*": {}}}}, None)
    assert facts["quant_skip_modules"] == ["*"]


def test_marlin_refuses_fc1_itself_until_0_7_3_then_the_awq_kernel_fc2():
    name, width, kind, (unit_name, unit, shard, rule, certain) = v.vision_hit(MODEL, "awq_marlin", TABLE, "0.6.4")
    assert (name, width, kind, unit_name, unit, rule, certain) == ("mlp.fc1", 4304, "vision", "min_thread_n", 64, "marlin_tiles", True)
    name, width, _, (unit_name, unit, *_rest) = v.vision_hit(MODEL, "awq_marlin", TABLE, "0.7.3")
    assert (name, width, unit_name, unit) == ("mlp.fc2", 4304, "group_size", 128)
    assert v.vision_hit(MODEL, "awq", TABLE, "0.6.4")[0] == "mlp.fc2"
    # the GPTQ-Marlin kernel chooser may find another kernel: not certain
    assert v.vision_hit({**MODEL, "quant_method": "gptq"}, "gptq_marlin", TABLE, "0.8.5")[3][4] is False


def test_only_where_the_release_builds_the_tower_quantized_from_config_json():
    assert v.vision_hit(MODEL, "awq_marlin", TABLE, "0.6.3") is None    # the tower took no quant_config
    assert v.vision_hit(MODEL, "awq_marlin", TABLE, "0.11.0") is not None
    assert v.vision_hit(MODEL, "awq_marlin", TABLE, "0.11.1") is None   # the stored dtypes decide from here
    assert v.vision_hit({**MODEL, "quant_method": "gptq"}, "gptq", TABLE, "0.11.0") is None
    assert v.vision_hit({**MODEL, "quant_skip_modules": ["vpm"]}, "awq_marlin", TABLE, "0.6.4") is None
    assert v.vision_hit({**MODEL, "quant_skip_modules": ["*"]}, "awq_marlin", TABLE, "0.6.4") is None
    assert v.vision_hit({**MODEL, "quant_skip_modules": ["lm_head"]}, "awq_marlin", TABLE, "0.6.4") is not None
    assert v.vision_hit({**MODEL, "architecture": "Qwen2VLForConditionalGeneration"}, "awq_marlin", TABLE, "0.6.4") is None
    # a tower whose widths every kernel takes
    assert v.vision_hit({**MODEL, "vision_mlp": {"hidden_size": 1152, "intermediate_size": 4352}}, "awq_marlin", TABLE, "0.6.4") is None


def _audit(tmp_path, version, gpu, **quant):
    from vllm_kb.engine.audit import audit

    folder = tmp_path / "MiniCPM-V-2_6-awq"
    folder.mkdir(exist_ok=True)
    (folder / "config.json").write_text(json.dumps({**CONFIG, "quantization_config": {**CONFIG["quantization_config"], **quant}}))
    (tmp_path / "requirements.txt").write_text(f"vllm=={version}\n")
    (tmp_path / "serve.sh").write_text("vllm serve ./MiniCPM-V-2_6-awq --trust-remote-code\n")
    rep = audit(tmp_path, gpu=gpu)
    (site,) = rep.sites
    return next(r for r in site.results if r.check.id == "L75"), site.facts["startup"]


def test_audit_end_to_end(tmp_path):
    res, st = _audit(tmp_path, "0.6.4", "RTX-4090")
    assert (res.status, res.priority) == ("recommended", "P0")
    assert st["qtp_vision"] == "vpm" and st["qtp_layer"] == "mlp.fc1" and "qtp_tp_fit" not in st
    assert st["qtp_width"] == 4304 and "qtp_vision" in res.reason.en and "qtp_vision" in res.reason.zh
    res, st = _audit(tmp_path, "0.8.5", None)  # the GPU unknown: both kernels refuse
    assert (res.status, res.priority) == ("recommended", "P0") and st["qtp_layer"] == "mlp.fc2"
    res, _ = _audit(tmp_path, "0.6.4", "RTX-4090", modules_to_not_convert=["vpm"])
    assert res.status != "recommended"
    res, _ = _audit(tmp_path, "0.13.0", "RTX-4090")
    assert res.status != "recommended"
