"""A failure with two levers gets both: L15 (max_model_len above what the KV cache holds) lowers
max_model_len to the length that fits with its margin and offers a higher gpu_memory_utilization as
the alternative — never where a trainer shares the GPU (rlhf_colocate) — or, within the estimate's
error of zero, raises gpu_memory_utilization and offers the fitting length. The alternative is a
change marked "alternative": said in the site's own keys, never written by --fix, and a reporter's
fix matches it as it matches any proposed change (tests/realcases_score.py)."""
from pathlib import Path

import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.evaluate import evaluate
from vllm_kb.engine.kb import cel
from vllm_kb.engine.kb.knowledge import load

import realcases_score as score

KB = load()
L15 = KB.checks.get("L15")


def _facts(mode: str, **memory) -> dict:
    mem = {"max_model_len_known": True, "kv_cache_gib": 2.6, "fits_max_model_len": False, "max_model_len": 24576,
           "max_model_len_fit": 19360, "max_model_len_safe": 17408, "gmu_needed": 0.9, "gpu_memory_utilization": 0.85}
    mem.update(memory)
    return {"site": {"mode": mode, "pooling": False}, "vllm": {"version": "0.8.5"}, "engine": {"max_model_len": 24576},
            "memory": mem}


def _ops(facts: dict) -> dict:
    res = evaluate(L15, facts, cel.Activation(facts), {}, KB)
    assert res.status == "recommended" and res.priority == "P0"
    return {(op.target, op.alternative): v for op, v in res.fix}


def test_lower_length_with_higher_budget_as_alternative():
    assert _ops(_facts("standalone_serve")) == {("max_model_len", False): 17408, ("gpu_memory_utilization", True): 0.9}


def test_no_higher_budget_where_the_trainer_shares_the_gpu():
    assert _ops(_facts("rlhf_colocate")) == {("max_model_len", False): 17408}


def test_no_budget_alternative_past_095():
    assert _ops(_facts("standalone_serve", gmu_needed=0.97)) == {("max_model_len", False): 17408}


def test_near_zero_raises_the_budget_and_offers_the_fitting_length():
    facts = _facts("standalone_serve", kv_cache_gib=0.3, kv_cache_near_zero=True, max_model_len_fit=2200,
                   max_model_len_safe=1536, weights_per_gpu_gib=67.7)
    assert _ops(facts) == {("gpu_memory_utilization", False): 0.9, ("max_model_len", True): 1536}
    # nothing useful fits: no length is offered
    facts["memory"].update(max_model_len_fit=224, max_model_len_safe=0)
    assert _ops(facts) == {("gpu_memory_utilization", False): 0.9}


def test_the_alternative_is_said_not_written(tmp_path: Path):
    (tmp_path / "requirements.txt").write_text("vllm==0.8.5\n")
    (tmp_path / "serve.sh").write_text("vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 24576 --gpu-memory-utilization 0.85\n")
    rep = audit(tmp_path, gpu="L4")
    (sr,) = rep.sites
    got = {ch.target: ch for ch in sr.changes if "L15" in ch.checks}
    assert got["max_model_len"].blocked is None and got["max_model_len"].value < 24576
    alt = got["gpu_memory_utilization"]
    # 0.92, not 0.9: V1 before 0.9.1 counts the CUDA context against the budget (reserve.non_torch_bytes)
    assert alt.blocked == "alternative" and alt.after == "--gpu-memory-utilization 0.92"
    # either lever is the reporter's fix
    assert score.fix_proposed(rep, {"set": "gpu_memory_utilization", "value": 0.92})
    assert score.fix_proposed(rep, {"set": "max_model_len", "value": 16384})
    from vllm_kb.engine.fix.apply import pending

    assert all(ch.blocked != "alternative" for _, ch, _ in pending(rep, True))  # --fix --unsafe-fixes too
    # and the alternative holds nothing back: the rule's own change is written
    assert [ch.target for _, ch, _ in pending(rep, True) if "L15" in ch.checks] == ["max_model_len"]


def test_a_checkpoint_method_a_later_release_knows_pins_that_release(tmp_path: Path):
    # vLLM #1769: a GPTQ checkpoint on 0.2.2, which knows awq and squeezellm only; GPTQ from 0.2.6
    (tmp_path / "requirements.txt").write_text("vllm==0.2.3\n")
    (tmp_path / "run.py").write_text("from vllm import LLM\nllm = LLM(model='TheBloke/Llama-2-7B-Chat-GPTQ')\n")
    rep = audit(tmp_path, gpu="A100-80GB")
    (sr,) = rep.sites
    l10 = [r for r in sr.results if r.check.id == "L10"]
    assert l10 and l10[0].status == "recommended" and l10[0].priority == "P0"
    assert score.fix_proposed(rep, {"pin": "vllm", "value": ">=0.2.6"})


@pytest.mark.parametrize(("pin", "serve", "check", "after", "alt", "alt_fix"), [
    # the gpt-oss preview build on an Ampere card (vLLM #22414): install a release, or keep the build and choose
    # the Triton backend (sinks: 0.10.1 triton_attn.py) — the env var is said, not written
    ("vllm==0.10.1+gptoss", "vllm serve openai/gpt-oss-20b", "L65", "vllm==0.10.1.1",
     "VLLM_ATTENTION_BACKEND", {"env": "VLLM_ATTENTION_BACKEND", "value": "TRITON_ATTN_VLLM_V1"}),
    # qualiteg blog: --quantization fp8 over a 16-bit checkpoint on an RTX A6000 (8.6) with 0.5.0.post1, whose fp8
    # needs 8.9; 0.5.1 falls back to weight-only Marlin, or the argument goes (the author's way)
    ("vllm==0.5.0.post1", "python3 -m vllm.entrypoints.openai.api_server --model cyberagent/calm3-22b-chat --quantization fp8",
     "L7", "vllm==0.5.1", "quantization", {"unset": "quantization"}),
])
def test_a_release_pin_with_an_alternative_said_not_written(tmp_path: Path, pin, serve, check, after, alt, alt_fix):
    (tmp_path / "requirements.txt").write_text(pin + "\n")
    (tmp_path / "serve.sh").write_text(serve + "\n")
    rep = audit(tmp_path, gpu="RTX-A6000")
    (sr,) = rep.sites
    got = {ch.target: ch for ch in sr.changes if check in ch.checks}
    assert got["vllm"].blocked is None and got["vllm"].after == after
    assert got[alt].blocked == "alternative" and score.fix_proposed(rep, alt_fix)
    assert score.fix_proposed(rep, {"pin": "vllm", "value": ">=" + after.split("==")[1]})
    from vllm_kb.engine.fix.apply import pending

    assert [ch.target for _, ch, _ in pending(rep, True) if check in ch.checks] == ["vllm"]


def test_a_quantized_checkpoint_gets_no_removal(tmp_path: Path):
    # the checkpoint itself is FP8 by its name: leaving --quantization out changes nothing, so only the pin is said
    (tmp_path / "requirements.txt").write_text("vllm==0.5.0.post1\n")
    (tmp_path / "serve.sh").write_text("vllm serve neuralmagic/Meta-Llama-3-8B-Instruct-FP8 --quantization fp8\n")
    rep = audit(tmp_path, gpu="RTX-A6000")
    (sr,) = rep.sites
    assert not [ch for ch in sr.changes if ch.target == "quantization"]


def test_a_setting_whose_value_computes_to_null_is_not_proposed():
    """L15's encoder branch raises gpu_memory_utilization only when a budget of 0.95 or less fits
    (`… ? memory.gmu_needed_encoder : null`): where none does, nothing is written — LLaMA-Factory's
    vllm_infer.py once got `--vllm_config '{"gpu_memory_utilization": null}'`
    (https://github.com/hiyouga/LlamaFactory/issues/7234)."""
    from vllm_kb.engine.check.evaluate import _concrete
    from vllm_kb.engine.kb.knowledge import FixOp

    act = cel.Activation({"memory": {"gpu_memory_utilization": 0.9}})
    ops = (FixOp("set", "gpu_memory_utilization", value_from="has(memory.gmu_needed_encoder) ? memory.gmu_needed_encoder : null"),
           FixOp("set", "max_model_len", value=8192))
    assert [(op.target, v) for op, v in _concrete(ops, act)] == [("max_model_len", 8192)]
