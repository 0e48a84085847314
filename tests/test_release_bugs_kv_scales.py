"""The model_bugs row that holds only for a checkpoint storing ModelOpt's per-projection KV-cache scales
(`kv_scales: modelopt`): MiniMax-M2's loader of 0.11.1-0.18.1 renames self_attn.k_proj.k_scale to a
qkv_proj.k_scale no parameter has (vLLM #38303, PR #37214 in 0.19.0)."""
from __future__ import annotations

import json

import pytest

from vllm_kb.engine.check.startup_release_bugs import model_bug_facts
from vllm_kb.engine.kb.knowledge import load

ARCH = "MiniMaxM2ForCausalLM"
_KV = {"quantized": True, "quant_method": "modelopt_fp4", "quant_kv_cache": "fp8"}


def _table() -> dict:
    return load().doc("vllm", "release_bugs.yaml").data


@pytest.mark.parametrize("model,version,row", [
    (_KV, "0.18.0", "minimax-m2-kv-scales"),
    (_KV, "0.11.1", "minimax-m2-kv-scales"),  # the first release with the class
    (_KV, "0.18.1", "minimax-m2-kv-scales"),  # the same loader as 0.18.0
    (_KV, "0.19.0", None),  # PR #37214 remaps the scales first
    (_KV, "0.25.0", None),  # AutoWeightsLoader's cache-scale mapper
    ({**_KV, "quant_method": "modelopt"}, "0.15.1", "minimax-m2-kv-scales"),  # ModelOpt FP8 weights alike
    ({"quantized": True, "quant_method": "modelopt_fp4"}, "0.18.0", None),  # no FP8 KV cache: no scale tensors
    ({"quantized": True, "quant_method": "fp8"}, "0.18.0", None),  # MiniMax's own FP8 release: no KV scales
    ({"quantized": True, "quant_method": "compressed-tensors", "quant_kv_cache": "fp8"}, "0.18.0", None),  # not this naming
    ({}, "0.18.0", None),
])
def test_minimax_m2_kv_scales(model, version, row):
    f = model_bug_facts(ARCH, {}, _table(), version, model)
    assert f.get("release_bug") == row
    if row:
        assert f["release_bug_fixed"] == "0.19.0" and f["release_bug_kv_scales"] == "modelopt"


def test_other_class_is_not_claimed():
    assert model_bug_facts("Qwen3MoeForCausalLM", {}, _table(), "0.18.0", _KV).get("release_bug") is None


def test_kv_cache_dtype_alone_is_not_claimed():
    # --kv-cache-dtype fp8 makes the cache FP8 at run time; the checkpoint holds no scale tensors
    f = model_bug_facts(ARCH, {"kv_cache_dtype": "fp8"}, _table(), "0.18.0", {"quantized": True, "quant_method": "fp8"})
    assert f.get("release_bug") is None


def _audit(tmp_path, pin: str, model: str, config: dict | None = None) -> list[str]:
    """The priority of L133 at the one site, where it asks for a change."""
    from vllm_kb.engine.audit import audit

    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    if config is not None:
        ckpt = tmp_path / "ckpt"
        ckpt.mkdir()
        (ckpt / "config.json").write_text(json.dumps(config))
    (tmp_path / "serve.sh").write_text(f"#!/bin/sh\nvllm serve {model} --tensor-parallel-size 4 --trust-remote-code\n")
    (sr,) = audit(tmp_path, gpu="B200 x4").sites
    return [r.priority for r in sr.results if r.check.id == "L133" and r.needs_change]


def test_nvidia_upload_end_to_end(tmp_path):
    assert _audit(tmp_path, "0.18.0", "nvidia/MiniMax-M2.5-NVFP4") == ["P0"]


def test_nvidia_upload_fixed_release(tmp_path):
    assert _audit(tmp_path, "0.19.0", "nvidia/MiniMax-M2.5-NVFP4") == []


def test_local_modelopt_config_end_to_end(tmp_path):
    config = {"architectures": [ARCH], "model_type": "minimax_m2",
              "quantization_config": {"quant_method": "modelopt", "quant_algo": "NVFP4", "kv_cache_quant_algo": "FP8"}}
    assert _audit(tmp_path, "0.17.1", "./ckpt", config) == ["P0"]
    no_kv = {**config, "quantization_config": {"quant_method": "modelopt", "quant_algo": "NVFP4"}}
    other = tmp_path / "other"
    other.mkdir()
    assert _audit(other, "0.17.1", "./ckpt", no_kv) == []
