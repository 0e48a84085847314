"""A4 on VLLM_USE_V1=0 where the project passes what the V1 engine refuses per request:
SamplingParams(logits_processors=[…]) raises "vLLM V1 does not support per request user provided logits
processors" in 0.8.0 … 0.16.0 (0.8.5 v1/engine/processor.py:119-121), so V0 is what runs the project
(deepseek-ocr-vllm, https://github.com/goldfish-inc/deepseek-ocr-vllm, eval68)."""
import pytest
from vllm_kb.engine.audit import audit

SCRIPT = """\
import os
os.environ["VLLM_USE_V1"] = "0"
from vllm import LLM, SamplingParams

llm = LLM(model="Qwen/Qwen2.5-7B-Instruct", max_model_len=4096)
params = SamplingParams(temperature=0.0, max_tokens=256{extra})
print(llm.generate(["hi"], params))
"""


@pytest.mark.parametrize("extra,status", [(", logits_processors=[lambda ids, logits: logits]", "not_applicable"),
                                          ("", "recommended")])
def test_a4_keeps_v0_for_per_request_logits_processors(tmp_path, extra, status):
    (tmp_path / "requirements.txt").write_text("vllm==0.8.5\n")
    (tmp_path / "run.py").write_text(SCRIPT.format(extra=extra))
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    r = next(x for x in sr.results if x.check.id == "A4")
    assert r.status == status
    if extra:
        assert "SamplingParams(logits_processors=…)" in r.reason_text("en") and "run.py:6" in r.reason_text("en")
