"""A server module that cannot start in some releases whatever it serves (knowledge/vllm/release_bugs.yaml
entrypoint_bugs, L144): the demo server `python -m vllm.entrypoints.api_server` of 0.8.5 and 0.8.5.post1, whose
launcher watches app.state.engine_client that its init_app never sets (vLLM #17395; PR #17434 in 0.9.0)."""
from __future__ import annotations

import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.startup_release_bugs import entrypoint_bug_facts
from vllm_kb.engine.kb.knowledge import load

_DEMO = "python3 -m vllm.entrypoints.api_server --model Qwen/Qwen2-7B-Instruct --tensor-parallel-size 2 --port 21131"


@pytest.mark.parametrize("kind,version,hit", [
    ("legacy api_server", "0.8.5", True),
    ("legacy api_server", "0.8.5.post1", True),  # the same two files as 0.8.5
    ("legacy api_server", "0.8.4", False),  # the launcher had no watchdog yet
    ("legacy api_server", "0.9.0", False),  # init_app sets it
    ("api_server", "0.8.5", False),  # the OpenAI server sets it itself
    ("vllm serve", "0.8.5", False),
])
def test_facts(kind, version, hit):
    f = entrypoint_bug_facts({"kind": kind}, load().doc("vllm", "release_bugs.yaml").data, version)
    assert (f.get("runtime_bug") == "demo-server-engine-client") is hit
    if hit:
        assert f["runtime_bug_fixed"] == "0.9.0" and f["runtime_bug_module"] == "vllm.entrypoints.api_server"


@pytest.mark.parametrize("pin,launch,p0", [
    ("0.8.5.post1", _DEMO, True),
    ("0.9.0", _DEMO, False),
    ("0.8.5", "vllm serve Qwen/Qwen2-7B-Instruct --tensor-parallel-size 2", False),  # what the advice offers
])
def test_l144_on_an_audited_project(tmp_path, pin, launch, p0):
    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    (tmp_path / "serve.sh").write_text(launch + "\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB x2").sites
    r = next(r for r in sr.results if r.check.id == "L144")
    assert (r.status == "recommended" and r.priority == "P0") is p0, r.reason_text("en")
    if p0:
        assert [(op.kind, op.target, v) for op, v in r.fix] == [("pin", "vllm", ">=0.9.0")]
