"""Which top-k/top-p sampler vLLM 0.8.0-0.11.0 warms up depends on whether FlashInfer is
installed: vLLM's images ship it, a plain pip pin does not (an extra before 0.11.1: setup.py
`extras_require["flashinfer"]`). Where the project says how vLLM is installed, the estimate uses
that sampler alone; where it does not, it keeps the alternative (L16 P1)."""
from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.memory.runtime import runtime


def test_runtime_by_installation():
    assert (runtime("0.10.1").sampler, runtime("0.10.1").sampler_alt) == ("sort", "flashinfer")
    assert (runtime("0.10.1", install="pip").sampler, runtime("0.10.1", install="pip").sampler_alt) == ("sort", None)
    assert (runtime("0.10.1", install="image").sampler, runtime("0.10.1", install="image").sampler_alt) == ("flashinfer", None)
    assert runtime("0.12.0", install="image").sampler_alt is None  # 0.11.1+: FlashInfer only when asked for


def _l16(tmp_path, requirements: str):
    (tmp_path / "requirements.txt").write_text(requirements)
    (tmp_path / "serve.sh").write_text("vllm serve openai/gpt-oss-120b\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB").sites
    return next(r for r in sr.results if r.check.id == "L16")


def test_a_pip_pin_samples_with_the_sort(tmp_path):
    r = _l16(tmp_path, "vllm==0.11.0\n")
    assert (r.status, r.priority) == ("recommended", "P0")


def test_flashinfer_installed_beside_it_keeps_the_alternative(tmp_path):
    assert _l16(tmp_path, "vllm==0.11.0\nflashinfer-python==0.3.1\n").priority != "P0"
