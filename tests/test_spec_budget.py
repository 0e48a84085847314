"""The slots speculative drafting takes from each batch, per release (engine/check/startup_spec.py),
and L64 on an audited project (vllm-project/vllm#50708: DFlash at 16 speculative tokens with the
default batch budget stops at start-up)."""
from __future__ import annotations

import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.startup_spec import draft_slots, spec_facts


@pytest.mark.parametrize("spec,version,slots", [
    ({"method": "dflash", "num_speculative_tokens": 16}, "0.19.1", None),  # no refusal before 0.20
    ({"method": "dflash", "num_speculative_tokens": 16}, "0.20.0", 15),
    ({"method": "dflash", "num_speculative_tokens": 16}, "0.26.0", 15),
    ({"method": "dflash", "num_speculative_tokens": 16}, "0.28.0", 16),
    ({"method": "dflash", "num_speculative_tokens": 16}, "0.33.0", 0),
    ({"method": "eagle3", "num_speculative_tokens": 4}, "0.26.0", 0),
    ({"method": "eagle3", "num_speculative_tokens": 4, "parallel_drafting": True}, "0.26.0", 3),
    ({"method": "draft_model", "num_speculative_tokens": 4}, "0.26.0", 1),
    ({"method": "draft_model", "num_speculative_tokens": 4, "parallel_drafting": True}, "0.30.0", 4),
    ({"method": "draft_model", "num_speculative_tokens": 4, "parallel_drafting": True}, "0.34.0", 1),
    ({"method": "dflash", "num_speculative_tokens": 16}, "0.34.0", 0),
    ({"method": "dflash"}, "0.26.0", None),  # K from the draft's config: not known here
])
def test_draft_slots_follow_the_release(spec, version, slots):
    assert draft_slots(spec, version) == slots


def test_a_default_budget_without_chunked_prefill_is_max_model_len():
    engine = {"speculative_config": {"method": "dflash", "num_speculative_tokens": 4}, "max_num_seqs": 256,
              "max_num_batched_tokens": 512}
    got = spec_facts(engine, {}, {"chunked_prefill": False, "max_len": 32768}, "0.26.0")
    assert got["spec_max_num_batched_tokens"] == 32768 and got["spec_scheduled_tokens"] > 0
    assert spec_facts(engine, {}, {"chunked_prefill": False}, "0.26.0") == {}  # length unknown: no guess


def test_an_unset_max_num_seqs_is_lowered_to_the_batch_budget():
    engine = {"speculative_config": {"method": "draft_model", "num_speculative_tokens": 4}, "max_num_seqs": 1024,
              "max_num_batched_tokens": 512}
    got = spec_facts(engine, {"max_num_batched_tokens": 512}, {"chunked_prefill": True}, "0.26.0")
    assert got["spec_max_num_seqs"] == 512 and got["spec_scheduled_tokens"] == 0


def _serve(tmp_path, pin: str, spec: str, extra: str = ""):
    (tmp_path / "requirements.txt").write_text(pin + "\n")
    (tmp_path / "serve.sh").write_text(f"vllm serve Qwen/Qwen3-8B --speculative-config '{spec}' {extra}\n")
    (sr,) = audit(tmp_path, gpu="L40S").sites
    return {r.check.id: r for r in sr.results}, sr


def test_dflash_at_16_tokens_with_the_default_budget_is_a_p0(tmp_path):
    results, sr = _serve(tmp_path, "vllm==0.26.0", '{"method": "dflash", "model": "/d", "num_speculative_tokens": 16}')
    r = results["L64"]
    assert r.status == "recommended" and r.priority == "P0"
    assert "does not allow any tokens to be scheduled" in r.reason.en
    assert ("set", "max_num_batched_tokens") in {(c.op, c.target) for c in sr.changes}


def test_a_budget_that_holds_the_slots_starts(tmp_path):
    results, _ = _serve(tmp_path, "vllm==0.26.0", '{"method": "dflash", "model": "/d", "num_speculative_tokens": 16}',
                        "--max-num-seqs 64 --max-num-batched-tokens 8192")
    assert results["L64"].status == "enabled"


def test_eagle3_takes_no_slots(tmp_path):
    results, _ = _serve(tmp_path, "vllm==0.26.0", '{"method": "eagle3", "model": "/d", "num_speculative_tokens": 3}')
    assert results["L64"].status == "enabled"
