"""LLM.generate(prompt_token_ids=…), gone from vLLM 0.10.2 (engine/scan/llm_method_calls.py, check L288):
only a call on the LLM the script builds counts; P1 (the engine starts, the script fails at its first generate), P2 while deprecated."""
from __future__ import annotations

import textwrap

from vllm_kb.engine.audit import audit

_SCRIPT = """
from vllm import LLM, SamplingParams
llm = LLM(model="Qwen/Qwen2.5-0.5B-Instruct")
out = llm.generate(prompt_token_ids=[[1, 2, 3]], sampling_params=SamplingParams(max_tokens=8))
"""
_CLASS = """
from vllm import LLM
class Runner:
    def __init__(self):
        self.llm = LLM("Qwen/Qwen2.5-0.5B-Instruct")
    def run(self, ids):
        return self.llm.generate(prompt_token_ids=ids)
"""
# another object's generate (a Hugging Face model, an AsyncLLMEngine): no LLM method
_OTHER = """
from vllm import LLM
llm = LLM(model="Qwen/Qwen2.5-0.5B-Instruct")
engine = make_async_engine()
engine.generate(None, params, "req-1", prompt_token_ids=[1, 2, 3])
out = llm.generate([{"prompt_token_ids": [1, 2, 3]}])
"""


def _l288(tmp_path, src, pin):
    (tmp_path / "run.py").write_text(textwrap.dedent(src))
    if pin is not None:
        (tmp_path / "requirements.txt").write_text(pin + "\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB x1").sites
    return next(r for r in sr.results if r.check.id == "L288")


def test_pinned_after_removal_is_p1_the_engine_starts_first(tmp_path):
    r = _l288(tmp_path, _SCRIPT, "vllm==0.10.2")
    assert r.status == "recommended" and r.priority == "P1" and "run.py:4" in r.reason_text("en")


def test_a_range_reaching_back_is_p1(tmp_path):
    r = _l288(tmp_path, _SCRIPT, "vllm>=0.9.0,<0.11")
    assert r.status == "recommended" and r.priority == "P1"


def test_before_removal_is_a_p2_deprecation(tmp_path):
    r = _l288(tmp_path, _SCRIPT, "vllm==0.8.5")
    assert r.status == "recommended" and r.priority == "P2"


def test_method_of_the_instance_attribute(tmp_path):
    r = _l288(tmp_path, _CLASS, "vllm==0.11.0")
    assert r.priority == "P1" and "self.llm.generate" in r.reason_text("en")


def test_other_objects_and_prompts_as_dicts_are_not_flagged(tmp_path):
    assert _l288(tmp_path, _OTHER, "vllm==0.11.0").status == "not_applicable"
