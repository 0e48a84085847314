"""A launch check is a P0 only in the releases where vLLM raises: the same public report's project
(tests/realcases) flips when its pin crosses the release that added the check."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

CASES = Path(__file__).resolve().parent / "realcases"


@pytest.mark.parametrize("case,gpu,check,before,after", [
    # float16 refused for gemma3 from 0.9.1 (ModelConfig's _FLOAT16_NOT_SUPPORTED_MODELS)
    ("float16-model--vllm-18733-control", "A100-80GB x8", "L5", "0.9.0", "0.10.0"),
])
def test_p0_only_from_the_release_that_raises(tmp_path, case, gpu, check, before, after):
    from vllm_kb.engine.audit import audit

    got = {}
    for pin in (before, after):
        dst = tmp_path / pin
        shutil.copytree(CASES / case, dst, ignore=shutil.ignore_patterns("case.yaml"))
        (dst / "requirements.txt").write_text(f"vllm=={pin}\n")
        rep = audit(dst, gpu=gpu)
        got[pin] = {r.check.id for sr in rep.sites for r in sr.results if r.status == "recommended" and r.priority == "P0"}
    assert check not in got[before] and check in got[after], got
