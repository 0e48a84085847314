"""Upgrades: a launch script written for vLLM 0.6, audited against newer releases, must list
every option that no longer exists and say what replaced it; values must exist in the release."""
import pytest
from vllm_kb.engine.audit import audit
from vllm_kb.engine.report import model

OLD_SCRIPT = """#!/bin/bash
export VLLM_ATTENTION_BACKEND=XFORMERS
vllm serve --model facebook/opt-125m \\
  --swap-space 4 \\
  --use-v2-block-manager \\
  --num-scheduler-steps 10 \\
  --max-seq-len-to-capture 8192 \\
  --guided-decoding-backend outlines \\
  --speculative-model facebook/opt-125m --num-speculative-tokens 5 \\
  --disable-log-requests \\
  --preemption-mode swap \\
  --task generate
"""
GONE = {"swap_space", "use_v2_block_manager", "num_scheduler_steps", "max_seq_len_to_capture", "guided_decoding_backend",
        "speculative_model", "num_speculative_tokens", "disable_log_requests", "preemption_mode", "task"}


def site_report(tmp_path, script, version, gpu="H100 x1"):
    (tmp_path / "serve.sh").write_text(script)
    rep = model.build(audit(tmp_path, gpu=gpu, vllm_version=version), "en")
    (site,) = rep["sites"]
    return site


def test_a_vllm_0_6_script_on_0_33_lists_every_removed_option_with_its_replacement(tmp_path):
    site = site_report(tmp_path, OLD_SCRIPT, "0.33.0")
    p0 = [r for r in site["recommendations"] if r["priority"] == "P0"]
    named = {r["check"].split(":", 1)[1] for r in p0 if r["kind"] == "finding" and r["check"].startswith("not-in-version")}
    named |= {"swap_space"} if any(r["check"] == "B4" for r in p0) else set()
    assert GONE <= named
    texts = {r["check"]: r["title"] for r in p0}
    assert "--structured-outputs-config.backend" in texts["not-in-version:guided_decoding_backend"]
    assert "--speculative-config" in texts["not-in-version:speculative_model"]
    assert "--runner" in texts["not-in-version:task"]
    # where a replacement exists in 0.33 the value is carried over
    targets = {(c["op"], c["target"]): c for c in site["changes"]}
    assert targets[("set", "structured_outputs_config")]["after"] == "--structured-outputs-config '{\"backend\": \"outlines\"}'"
    assert targets[("set", "speculative_config")]["value"]["num_speculative_tokens"] == 5
    # the env var that became a flag
    assert any(c["op"] == "unset_env" and c["target"] == "VLLM_ATTENTION_BACKEND" for c in site["changes"])
    # `vllm serve --model` only warns from 0.11.1
    assert any(r["check"] == "L33" and r["priority"] == "P2" for r in site["recommendations"])


def test_the_same_script_is_fine_on_its_own_release(tmp_path):
    site = site_report(tmp_path, OLD_SCRIPT, "0.6.6")
    names = {r["check"] for r in site["recommendations"] if r["kind"] == "finding"}
    assert not any(n.startswith("not-in-version") for n in names)
    assert any(r["check"] == "L33" and r["priority"] == "P0" for r in site["recommendations"])  # rejected before 0.11.1


@pytest.mark.parametrize("flags,version,code", [
    ("--quantization fp8_per_block", "0.19.0", "L10"),  # arrived in 0.20: quant-name says so, not the catalog
    ("--quantization fp8_per_block", "0.20.0", None),
    ("--kv-cache-dtype fp8_e4m4", "0.33.0", "value-unknown:kv_cache_dtype=fp8_e4m4"),
    ("--attention-backend XFORMERS", "0.33.0", "value-not-in-version:attention_backend=XFORMERS"),
    ("--speculative-config '{\"method\": \"medusa\", \"model\": \"m\"}'", "0.33.0", "value-not-in-version:speculative_config.method=medusa"),
])
def test_values_are_checked_against_the_release(tmp_path, flags, version, code):
    site = site_report(tmp_path, f"vllm serve org/m {flags}\n", version)
    found = {r["check"] for r in site["recommendations"] if r["kind"] == "finding" or r["priority"] == "P0"}
    if code is None:
        assert not any(f.startswith("value-") for f in found)
    else:
        assert code in found
