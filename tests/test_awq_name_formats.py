"""A "-AWQ" name says AutoAWQ's format (quant_method awq) or llm-compressor's AWQModifier export,
which is saved as compressed-tensors W4A16 (vllm-project/llm-compressor#1909, #2096). The name alone
decides neither the --quantization pair (L9) nor, where the two formats' kernels disagree on the GPU,
the refusal (L7)."""
from __future__ import annotations

from vllm_kb.engine.audit import audit


def _p(tmp_path, pin: str, gpu: str, extra: str = ""):
    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    (tmp_path / "serve.sh").write_text(f"vllm serve someone/Qwen3-8B-AWQ --max-model-len 4096 {extra}\n")
    (sr,) = audit(tmp_path, gpu=gpu).sites
    return {r.check.id: r.priority for r in sr.results if r.needs_change}


def test_the_compressed_tensors_flag_on_an_awq_name_is_no_mismatch(tmp_path):
    assert "L9" not in _p(tmp_path, "0.11.0", "A100-80GB", "--quantization compressed-tensors")


def test_a_turing_card_may_refuse_the_compressed_tensors_export(tmp_path):
    # 0.10.1: AutoAWQ needs 7.5, compressed-tensors W4A16 8.0 (0.12.0 lowers it to 7.5)
    assert _p(tmp_path, "0.10.1", "T4").get("L7") == "P1"
    assert "L7" not in _p(tmp_path, "0.12.0", "T4")


def test_a_volta_card_refuses_both_formats(tmp_path):
    assert _p(tmp_path, "0.10.1", "V100-32GB").get("L7") == "P0"
