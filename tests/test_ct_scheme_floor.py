"""`--quantization compressed-tensors` on a checkpoint whose scheme the audit cannot see: every scheme
vLLM 0.5.3–0.10.0 has needs compute capability 7.5 or more (knowledge/vllm/startup.yaml
scheme_min_capability.any, tools/vllm_quant_capability.py), so a Volta GPU is refused whatever the
scheme; from 0.10.1 a scheme with a lower minimum exists and nothing is claimed."""
from __future__ import annotations

from vllm_kb.engine.audit import audit

SERVE = "vllm serve someone/Qwen3-30B-A3B-Instruct-AWQ-4bit --quantization compressed-tensors --dtype float16 --max-model-len 4096\n"


def _run(tmp_path, pin: str, gpu: str):
    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    (tmp_path / "serve.sh").write_text(SERVE)
    (sr,) = audit(tmp_path, gpu=gpu).sites
    return {r.check.id for r in sr.results if r.priority == "P0" and r.status == "recommended"}, sr


def test_volta_refuses_any_scheme_before_0_10_1(tmp_path):
    p0, sr = _run(tmp_path, "0.10.0", "V100-32GB")
    assert p0 == {"L7"}
    assert sr.facts["startup"]["quant_scheme_floor"] and "quant_ok_from" not in sr.facts["startup"]
    assert sr.facts["memory"]["weights_per_gpu_gib"] < 20  # sized at the name's 4-bit width, not as 8-bit compressed-tensors


def test_no_claim_where_a_lower_scheme_exists_or_the_gpu_meets_the_floor(tmp_path):
    assert "L7" not in _run(tmp_path, "0.10.1", "V100-32GB")[0]
    assert "L7" not in _run(tmp_path, "0.10.0", "T4")[0]


def test_nvfp4_weights_need_ampere_until_0_16(tmp_path):
    """vLLM #32838: compressed-tensors NVFP4 (W4A16, and W4A4 off Blackwell, which falls back to it)
    declares compute capability 8.0 in 0.9.0-0.15.1; 0.16.0 lowers it to 7.5 (PR #33076)."""
    import json

    model = tmp_path / "models" / "Qwen3-8B-NVFP4A16"
    model.mkdir(parents=True)
    weights = {"num_bits": 4, "type": "float", "group_size": 16, "strategy": "tensor_group", "symmetric": True}
    (model / "config.json").write_text(json.dumps({
        "architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "hidden_size": 4096, "num_attention_heads": 32,
        "num_key_value_heads": 8, "num_hidden_layers": 36, "intermediate_size": 12288, "vocab_size": 151936,
        "max_position_embeddings": 40960, "torch_dtype": "bfloat16",
        "quantization_config": {"quant_method": "compressed-tensors", "format": "nvfp4-pack-quantized",
                                "config_groups": {"group_0": {"targets": ["Linear"], "weights": weights, "input_activations": None}}}}))
    (tmp_path / "serve.sh").write_text("vllm serve ./models/Qwen3-8B-NVFP4A16 --max-model-len 4096\n")

    def l7(pin: str, gpu: str):
        (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
        rep = audit(tmp_path, gpu=gpu)
        return [(r.status, r.priority) for sr in rep.sites for r in sr.results if r.check.id == "L7"]

    assert l7("0.14.0", "T4") == [("recommended", "P0")]
    assert l7("0.16.0", "T4") == [("enabled", None)]
    assert l7("0.14.0", "A10G") == [("enabled", None)]
