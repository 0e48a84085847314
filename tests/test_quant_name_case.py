"""`LLM(quantization="AWQ")` (henghayan/HappyChat inference/vllm_inference.py:107,
https://github.com/henghayan/HappyChat): the Python API lower-cases the name in every release —
ModelConfig._verify_quantization up to 0.9.0.1 (vllm/config.py 0.9.0.1:836), the pydantic
field_validator("quantization", mode="before") from 0.9.1 (vllm/config.py 0.9.1:625,
vllm/config/model.py 0.34.0:1074) — so it starts. The command line is stricter: up to 0.12
`--quantization` has lower-case argparse choices and `AWQ` is "invalid choice" (L10)."""
from vllm_kb.engine.audit import audit


def _p0(tmp_path, pin: str, name: str, text: str):
    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    (tmp_path / name).write_text(text)
    (sr,) = audit(tmp_path, gpu="A100-40GB").sites
    checks = [r.check.id for r in sr.results if r.needs_change and (r.priority or r.check.priority) == "P0"]
    return [f.code for f in sr.remarks if f.priority == "P0"] + checks


PY = 'from vllm import LLM\nllm = LLM(model="TheBloke/Mistral-7B-Instruct-v0.2-AWQ", quantization="AWQ")\n'


def test_python_api_upper_case_quantization_starts_after_091(tmp_path):
    assert _p0(tmp_path, "0.9.1", "run.py", PY) == []


def test_python_api_upper_case_quantization_starts_at_newest(tmp_path):
    assert _p0(tmp_path, "0.34.0", "run.py", PY) == []


def test_command_line_upper_case_quantization_stops_up_to_012(tmp_path):
    sh = "#!/bin/sh\nvllm serve TheBloke/Mistral-7B-Instruct-v0.2-AWQ --quantization AWQ\n"
    assert "L10" in _p0(tmp_path, "0.12.0", "run.sh", sh)
