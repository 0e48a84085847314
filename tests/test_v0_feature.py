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


@pytest.mark.parametrize("pin,env,status,fix", [("0.8.5", "", "recommended", True), ("0.8.5", "0", "not_applicable", False),
                                                ("0.13.0", "", "recommended", False), ("0.17.0", "", None, False)])
def test_l205_a_per_request_logits_processor_fails_its_first_request_on_v1(tmp_path, pin, env, status, fix):
    # V1 starts, then refuses the request (0.8.5 v1/engine/processor.py:119, 0.16.0 input_processor.py:183): a P1 whose
    # fix is VLLM_USE_V1=0 while V0 exists (to 0.10.2); from 0.17.0 SamplingParams has no such field (L140's)
    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    script = SCRIPT.format(extra=", logits_processors=[lambda ids, logits: logits]")
    (tmp_path / "run.py").write_text(script if env else script.replace('os.environ["VLLM_USE_V1"] = "0"\n', ""))
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    r = next(x for x in sr.results if x.check.id == "L205")
    assert (r.status if status else r.status != "recommended") == (status or True)
    if status == "recommended":
        assert r.priority == "P1" and "per request user provided logits processors" in r.reason_text("en")
        assert bool(r.fix) == fix


@pytest.mark.parametrize("value", ["None", "[]"])
def test_l205_an_empty_logits_processors_is_no_processor(tmp_path, value):
    # V1 checks `if params.logits_processors:`: None or an empty list passes
    (tmp_path / "requirements.txt").write_text("vllm==0.8.5\n")
    script = SCRIPT.format(extra=f", logits_processors={value}").replace('os.environ["VLLM_USE_V1"] = "0"\n', "")
    (tmp_path / "run.py").write_text(script)
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    assert next(x for x in sr.results if x.check.id == "L205").status == "not_applicable"
