"""A hand-written RL loop's rollout engine (engine/scan/python_rl_loop.py): the signals, and the
plain offline scripts that must not be read as one."""
from __future__ import annotations

import ast
import textwrap

import pytest

from vllm_kb.engine.scan.python_rl_loop import rl_rollout

_LOAD = """
from vllm import LLM
llm = LLM(model="m")
inner = llm.llm_engine.model_executor.driver_worker.model_runner.model
inner.load_weights(state.items())
"""
_RPC = """
from vllm import LLM
llm = LLM(model="m")
llm.collective_rpc("update_weight", args=(name, dtype, shape))
"""
_LOGPROBS_TRAIN = """
from vllm import LLM, SamplingParams
llm = LLM(model="m")
sp = SamplingParams(max_tokens=1, prompt_logprobs=1)
loss = compute(llm.generate(prompts, sp))
loss.backward()
"""
# R1-V/VLM-R1 vllm_grpo_trainer.py: TRL 0.14's GRPOTrainer copied, the engine built in __init__
_TRAINER = """
from transformers import Trainer
from vllm import LLM


class Qwen2VLGRPOVLLMTrainer(Trainer):
    def __init__(self, model, args):
        self.llm = LLM(model=model, device="cuda:7", max_model_len=args.max_completion_length)
"""
# controls: what plain offline scripts do
_RUNNER = """
from vllm import LLM


class Runner:  # a class that is no trainer
    def __init__(self):
        self.llm = LLM(model="m")
"""
_EVAL_LOGPROBS = """
from vllm import LLM, SamplingParams
llm = LLM(model="m")
out = llm.generate(prompts, SamplingParams(max_tokens=1, prompt_logprobs=1))
"""
_KERAS = """
from vllm import LLM
clf = keras.models.load_model("c.keras")
clf.load_weights("c.h5")
llm = LLM(model="m")
"""
_RPC_OTHER = """
from vllm import LLM
llm = LLM(model="m")
print(llm.collective_rpc("report_device_id"))
"""
_TRAIN_NO_LOGPROBS = """
from vllm import LLM, SamplingParams
llm = LLM(model="m")
sp = SamplingParams(max_tokens=64, logprobs=None)
loss.backward()
"""


@pytest.mark.parametrize("src,where", [
    (_LOAD, "run.py:5 (load_weights"),
    (_RPC, "run.py:4 (collective_rpc"),
    (_LOGPROBS_TRAIN, "run.py:4 (vLLM's logprobs, in a module that trains at line 6)"),
    (_TRAINER, "run.py:8 (LLM built inside Qwen2VLGRPOVLLMTrainer(Trainer), a trainer class)"),
])
def test_rl_loop_found(src, where):
    text = textwrap.dedent(src)
    got = rl_rollout(ast.parse(text), text, "run.py")
    assert got is not None and got.startswith(where)


@pytest.mark.parametrize("src", [_EVAL_LOGPROBS, _KERAS, _RPC_OTHER, _TRAIN_NO_LOGPROBS])
def test_plain_offline_scripts_are_no_rl_loop(src):
    text = textwrap.dedent(src)
    assert rl_rollout(ast.parse(text), text, "run.py") is None


def _b3(tmp_path, src):
    from vllm_kb.engine.audit import audit

    (tmp_path / "run.py").write_text(textwrap.dedent(src))
    (tmp_path / "requirements.txt").write_text("vllm==0.11.0\n")
    report = audit(tmp_path, gpu="H100-80GB x1")
    site = report.sites[0]
    return [r for r in site.results if r.check.id == "B3"][0]


def test_audit_b3_silent_in_rl_loop_and_kept_offline(tmp_path):
    rl = tmp_path / "rl"
    rl.mkdir()
    assert _b3(rl, _LOAD).status == "not_applicable"
    plain = tmp_path / "plain"
    plain.mkdir()
    assert _b3(plain, _EVAL_LOGPROBS).status == "recommended"


def test_a_trainer_classes_engine_is_no_plain_class():
    assert rl_rollout(ast.parse(_RUNNER), _RUNNER, "run.py") is None


def test_audit_reads_an_rl_loops_engine_as_a_rollout(tmp_path):
    # R1-V/VLM-R1: the engine the trainer builds on a spare GPU was read as an offline batch job (eval115 M7)
    from vllm_kb.engine.audit import audit

    (tmp_path / "trainer.py").write_text(_TRAINER)
    (tmp_path / "requirements.txt").write_text("vllm==0.7.2\n")
    site = audit(tmp_path, gpu="H100-80GB x8").sites[0]
    assert site.site.mode == "rlhf_server"
    assert "LLM built inside Qwen2VLGRPOVLLMTrainer(Trainer)" in site.site.mode_evidence
