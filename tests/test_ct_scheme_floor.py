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
