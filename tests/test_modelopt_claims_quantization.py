"""A ModelOpt checkpoint (FP8, NVFP4) claims itself whatever --quantization says from vLLM 0.10.0:
its override_quantization_method never reads the user's value (0.24.0 modelopt.py:1062-1067,
config/model.py:1014-1036), so `--quantization fp4` on an NVFP4 upload is no mismatch (L9) and the
unknown name `fp4` is never looked up (joshsanz/vllm-serve-multi nemotron-3-super.sh, eval66). The
command line of 0.4-0.12 still refuses a name outside its choices, and another checkpoint's method
still mismatches."""
from __future__ import annotations

from vllm_kb.engine.audit import audit

NVFP4 = "nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-NVFP4"
_CONFIG = ('{"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,'
           ' "num_attention_heads": 32, "num_key_value_heads": 8, "num_hidden_layers": 32,'
           ' "intermediate_size": 14336, "vocab_size": 128256, "max_position_embeddings": 8192,'
           ' "torch_dtype": "bfloat16", "quantization_config": %s}')
_MODELOPT = '{"quant_method": "modelopt", "quant_algo": "NVFP4", "group_size": 16}'


def _p(tmp_path, pin: str, flag: str, quant: str = _MODELOPT, python: bool = False):
    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    (tmp_path / "ckpt").mkdir(exist_ok=True)
    (tmp_path / "ckpt" / "config.json").write_text(_CONFIG % quant)
    if python:
        (tmp_path / "run.py").write_text(f"from vllm import LLM\nllm = LLM(model='./ckpt', quantization='{flag}', max_model_len=4096)\n")
    else:
        (tmp_path / "serve.sh").write_text(f"vllm serve ./ckpt --max-model-len 4096 --quantization {flag}\n")
    (sr,) = audit(tmp_path, gpu="B200").sites
    return {r.check.id: r.priority for r in sr.results if r.needs_change}, sr


def _p0(sr) -> set[str]:
    return {r.check.id for r in sr.results if r.needs_change and r.priority == "P0"} | {f.code for f in sr.remarks if f.priority == "P0"}


def test_fp4_on_an_nvfp4_checkpoint_is_claimed_from_0_10(tmp_path):
    got, sr = _p(tmp_path, "0.24.0", "fp4")
    assert "L9" not in got
    assert not _p0(sr)


def test_another_known_method_is_claimed_too(tmp_path):
    assert "L9" not in _p(tmp_path, "0.11.0", "fp8")[0]


def test_the_command_line_of_0_12_still_refuses_an_unknown_name(tmp_path):
    assert _p0(_p(tmp_path, "0.11.0", "fp4")[1])


def test_the_python_api_of_0_11_reaches_the_override(tmp_path):
    got, sr = _p(tmp_path, "0.11.0", "fp4", python=True)
    assert "L9" not in got and not _p0(sr)


def test_before_0_10_a_modelopt_checkpoint_is_compared_as_it_is(tmp_path):
    assert _p(tmp_path, "0.9.2", "fp8")[0].get("L9") == "P0"


def test_another_checkpoint_still_mismatches(tmp_path):
    quant = '{"quant_method": "awq", "bits": 4, "group_size": 128, "zero_point": true}'
    assert _p(tmp_path, "0.24.0", "fp8", quant)[0].get("L9") == "P0"


def _gpt_oss(tmp_path, pin: str, model_type: str = "gpt_oss"):
    quant = '{"quant_method": "mxfp4"}'
    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    (tmp_path / "ckpt").mkdir(exist_ok=True)
    (tmp_path / "ckpt" / "config.json").write_text(
        ('{"architectures": ["GptOssForCausalLM"], "model_type": "%s", "hidden_size": 2880, "num_attention_heads": 64,'
         ' "num_key_value_heads": 8, "num_hidden_layers": 24, "head_dim": 64, "intermediate_size": 2880,'
         ' "num_local_experts": 32, "num_experts_per_tok": 4, "vocab_size": 201088, "max_position_embeddings": 131072,'
         ' "torch_dtype": "bfloat16", "quantization_config": %s}') % (model_type, quant))
    (tmp_path / "serve.sh").write_text("vllm serve ./ckpt --max-model-len 4096 --quantization fp8\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB").sites
    return sr.facts["startup"]


def test_a_gpt_oss_mxfp4_checkpoint_is_claimed_from_0_20(tmp_path):
    got = _gpt_oss(tmp_path, "0.24.0")
    assert got.get("quant_checkpoint") == "mxfp4" and got.get("quant_mismatch") is False


def test_a_gpt_oss_mxfp4_checkpoint_mismatches_before_0_20(tmp_path):
    assert _gpt_oss(tmp_path, "0.19.1").get("quant_mismatch") is True


def test_a_name_some_release_knew_is_claimed_too(tmp_path):
    # `--quantization nvfp4` (a method of 0.8.x only) on a ModelOpt NVFP4 checkpoint, 0.13+: replaced
    # before the lookup (aatchison/deploy-vllm-k8s, eval77: seven false L10 P0s)
    got, sr = _p(tmp_path, "0.24.0", "nvfp4")
    assert "L10" not in got and not _p0(sr)
    assert _p0(_p(tmp_path, "0.11.0", "nvfp4")[1]) == {"L10"}  # the choices of 0.12 and before stop it


def test_an_nvfp4_name_of_unknown_format_is_p1(tmp_path):
    # a third party's "-NVFP4" upload may be ModelOpt's (claimed) or llm-compressor's (refused)
    (tmp_path / "requirements.txt").write_text("vllm==0.24.0\n")
    (tmp_path / "serve.sh").write_text("vllm serve someone/Gemma-4-E2B-it-NVFP4 --quantization nvfp4 --max-model-len 4096\n")
    (sr,) = audit(tmp_path, gpu="B200").sites
    got = {r.check.id: r.priority for r in sr.results if r.needs_change}
    assert got.get("L10") == "P1" and "L10" not in _p0(sr)
