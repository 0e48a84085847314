"""A --quantization value whose own override takes any quantized checkpoint is no mismatch (L9):
`humming` from vLLM 0.20.0 (humming.py:218 returns "humming" whenever the user asked for it; 0.34.0
humming.py:196) — vLLM's own docs advise it for GPTQ/AWQ/compressed-tensors weight-only checkpoints
(0.34.0 docs/features/quantization/README.md) —, `gguf` in 0.20.0-0.23.0 (gguf.py's override) and
`deepseek_v4_fp8` on an FP8 checkpoint from 0.20.0 (models/deepseek_v4.py:146). Before those releases,
and for any other value, the pair is compared as it is."""
from __future__ import annotations

from vllm_kb.engine.audit import audit

_CONFIG = ('{"architectures": ["%s"], "model_type": "%s", "hidden_size": 4096,'
           ' "num_attention_heads": 32, "num_key_value_heads": 8, "num_hidden_layers": 32,'
           ' "intermediate_size": 14336, "vocab_size": 128256, "max_position_embeddings": 8192,'
           ' "torch_dtype": "bfloat16", "quantization_config": %s}')
_GPTQ = '{"quant_method": "gptq", "bits": 4, "group_size": 128, "desc_act": false, "sym": true}'
_FP8 = '{"quant_method": "fp8", "activation_scheme": "dynamic", "weight_block_size": [128, 128]}'


def _startup(tmp_path, pin: str, flag: str, quant: str = _GPTQ, arch: str = "LlamaForCausalLM",
             model_type: str = "llama", gpu: str = "H100-80GB", more: str = "") -> dict:
    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    (tmp_path / "ckpt").mkdir(exist_ok=True)
    (tmp_path / "ckpt" / "config.json").write_text(_CONFIG % (arch, model_type, quant))
    (tmp_path / "serve.sh").write_text(f"vllm serve ./ckpt --max-model-len 4096 --quantization {flag}{more}\n")
    (sr,) = audit(tmp_path, gpu=gpu).sites
    l9 = next((r for r in sr.results if r.check.id == "L9"), None)
    return {**sr.facts["startup"], "L9": (l9.priority if l9 is not None and l9.needs_change else None)}


def test_humming_takes_a_gptq_checkpoint_from_0_20(tmp_path):
    got = _startup(tmp_path, "0.34.0", "humming")
    assert got.get("quant_mismatch") is False and got.get("quant_claimed") is True
    assert got["L9"] is None


def test_humming_is_claimed_in_its_first_release(tmp_path):
    assert _startup(tmp_path, "0.20.0", "humming").get("quant_mismatch") is False


def test_another_argument_still_mismatches(tmp_path):
    got = _startup(tmp_path, "0.34.0", "awq")
    assert got.get("quant_mismatch") is True and got["L9"] == "P0"


def test_humming_on_gpt_oss_mxfp4_is_no_mismatch_verdict_from_0_22(tmp_path):
    # humming.py refuses it with an error of its own ("use '--moe-backend humming'"), not L9's
    got = _startup(tmp_path, "0.24.0", "humming", '{"quant_method": "mxfp4"}', "GptOssForCausalLM", "gpt_oss")
    assert "quant_mismatch" not in got and got["L9"] is None


def test_gguf_takes_an_fp8_config_only_in_0_20_to_0_23(tmp_path):
    assert _startup(tmp_path, "0.22.0", "gguf", _FP8).get("quant_mismatch") is False
    # vLLM #19050: the same pair on 0.9.0 raised the mismatch
    assert _startup(tmp_path, "0.9.0", "gguf", _FP8).get("quant_mismatch") is True


def test_deepseek_v4_fp8_takes_an_fp8_checkpoint_from_0_20(tmp_path):
    assert _startup(tmp_path, "0.24.0", "deepseek_v4_fp8", _FP8).get("quant_mismatch") is False


def test_the_cpu_platform_takes_an_awq_checkpoint(tmp_path):
    quant = '{"quant_method": "awq", "bits": 4, "group_size": 128, "zero_point": true}'
    got = _startup(tmp_path, "0.14.0", "gptq", quant, gpu="none", more=" --device cpu")
    assert got.get("quant_mismatch") is not True
