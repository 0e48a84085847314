"""A bug in the change planner costs a site its proposed changes, never its verdicts: the P0 is
still reported and the skip says why no change came with it (the heldout sets found a launch form
whose planner crash dropped the whole site)."""
from __future__ import annotations

from vllm_kb.engine import audit as audit_mod
from vllm_kb.engine.audit import audit


def test_planner_crash_keeps_the_findings(tmp_path, monkeypatch):
    (tmp_path / "serve.sh").write_text("vllm serve meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size 3\n")
    (tmp_path / "requirements.txt").write_text("vllm==0.8.5\n")

    def broken(*_a, **_kw):
        raise KeyError("launch")

    monkeypatch.setattr(audit_mod, "plan", broken)
    rep = audit(tmp_path, gpu="H100-80GB x4")
    assert len(rep.sites) == 1
    sr = rep.sites[0]
    assert any(r.check.id == "L1" and r.priority == "P0" for r in sr.results if r.needs_change)
    assert sr.changes == [] and sr.after == []
    assert [(k.file, k.code) for k in rep.skipped] == [("serve.sh", "planner-error")]
