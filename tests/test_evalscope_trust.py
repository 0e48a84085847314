"""`evalscope perf --api local_vllm` passes --trust-remote-code to the vLLM it starts only from evalscope
0.8.1 (commit ed1cfd92 for modelscope/evalscope#243): a pin below it gives L50's P0, no pin a P1
(engine/scan/evalscope_launch.py trust_state)."""
from types import SimpleNamespace

import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.evalscope_launch import trust_state


@pytest.mark.parametrize("exact,spec,state", [
    (None, None, "unknown"), ("0.8.0", "==0.8.0", "absent"), ("0.8.1", "==0.8.1", None),
    (None, ">=0.9.0", None), (None, ">=0.7.0", "unknown"), ("0.7.2", "==0.7.2", "absent"),
])
def test_the_release_decides(exact, spec, state):
    pin = None if spec is None else SimpleNamespace(exact=exact, spec=spec)
    assert trust_state(pin) == state


def _l50(tmp_path, evalscope: str):
    (tmp_path / "requirements.txt").write_text(f"{evalscope}\nvllm==0.6.4.post1\n")
    (tmp_path / "run.sh").write_text("evalscope perf --api local_vllm --model Qwen/Qwen-14B-Chat --dataset speed_benchmark\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    return next(r for r in sr.results if r.check.id == "L50"), sr


def test_pinned_before_081_is_a_p0_and_the_pin_its_fix(tmp_path):
    r, sr = _l50(tmp_path, "evalscope==0.8.0")
    assert (r.status, r.priority) == ("recommended", "P0")
    assert any(c.op == "pin" and c.target == "evalscope" for c in sr.changes)
    assert "VLLM_ALLOW_LONG_MAX_MODEL_LEN" not in sr.site.env


def test_unpinned_is_a_p1_and_081_passes_the_flag(tmp_path):
    assert _l50(tmp_path, "evalscope")[0].priority == "P1"
    assert _l50(tmp_path, "evalscope==0.8.1")[0].status == "enabled"
