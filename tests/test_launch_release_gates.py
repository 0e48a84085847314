"""A launch check is a P0 only in the releases where vLLM raises: the same public report's project
(tests/realcases) flips when its pin crosses the release that added the check, or the one that
stopped raising."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

CASES = Path(__file__).resolve().parent / "realcases"


def _p0s_at(tmp_path, case: str, gpu: str, pin: str) -> set[str]:
    from vllm_kb.engine.audit import audit

    dst = tmp_path / pin
    shutil.copytree(CASES / case, dst, ignore=shutil.ignore_patterns("case.yaml"))
    (dst / "requirements.txt").write_text(f"vllm=={pin}\n")
    rep = audit(dst, gpu=gpu)
    return {r.check.id for sr in rep.sites for r in sr.results if r.status == "recommended" and r.priority == "P0"}


@pytest.mark.parametrize("case,gpu,check,before,after", [
    # float16 refused for gemma3 from 0.9.1 (ModelConfig's _FLOAT16_NOT_SUPPORTED_MODELS)
    ("float16-model--vllm-18733-control", "A100-80GB x8", "L5", "0.9.0", "0.10.0"),
    # VLLM_USE_V2_MODEL_RUNNER=0 selects the V1 model runner up to 0.33; 0.34.0 removed it and refuses the
    # variable in validate_environ
    ("env-refused-at-start--torchtitan-3749-control", "H100-80GB x1", "L170", "0.33.0", "0.34.0"),
    # a float16 KV cache under a bfloat16 model: garbled answers up to 0.32, refused from 0.33.0
    ("kv-cache-float-dtype--vllm-54338-control", "H100-80GB x1", "L171", "0.32.0", "0.33.0"),
])
def test_p0_only_from_the_release_that_raises(tmp_path, case, gpu, check, before, after):
    got = {pin: _p0s_at(tmp_path, case, gpu, pin) for pin in (before, after)}
    assert check not in got[before] and check in got[after], got


@pytest.mark.parametrize("case,gpu,check,last,fixed", [
    # chunked prefill with a sliding window: the V1 block manager (the default up to 0.6.2) refuses it
    ("chunked-prefill-sliding-window--flexeval-76", "A100-80GB x1", "L131", "0.6.2", "0.6.3"),
    # speculative decoding needs the V2 block manager, the default from 0.6.3
    ("spec-decode-v0-combinations--djl-2415", "A10G x1", "L129", "0.6.2", "0.6.3"),
])
def test_p0_ends_with_the_release_that_stops_raising(tmp_path, case, gpu, check, last, fixed):
    got = {pin: _p0s_at(tmp_path, case, gpu, pin) for pin in (last, fixed)}
    assert check in got[last] and check not in got[fixed], got
