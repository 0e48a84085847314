"""The JSON report written site by site (engine/report/stream.py) is the report built whole, byte
for byte — to stdout and to a file, with a configuration that hides checks, and falling back to
the whole build when suppression comments need every site first."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from vllm_kb.engine.audit import audit, audit_lazily
from vllm_kb.engine.report import json_text, model, stream

ROOT = Path(__file__).parent
PROJECTS = sorted((ROOT / "fixtures").iterdir()) + [ROOT.parent / "examples" / "quickstart"]


@pytest.mark.parametrize("project", PROJECTS, ids=[p.name for p in PROJECTS])
def test_streamed_report_is_the_built_one(project):
    whole = json_text.dumps(model.build(audit(project, gpu="H100-80GB x8"), "zh")) + "\n"
    rep, _sites, reports = audit_lazily(project, gpu="H100-80GB x8")
    out = io.StringIO()
    res = stream.write(rep, reports, "zh", out)
    assert out.getvalue() == whole
    data = json.loads(whole)
    assert res.head["summary"] == data["summary"]
    ps = [r["priority"] for s in data["sites"] for r in s["recommendations"]] + [f["priority"] for s in data["sites"] for f in s["findings"]]
    assert res.worst == (min((p for p in ps if p), default=None, key=lambda p: int(p[1])) if any(ps) else None)


def _cli_both(cli, project: Path, tmp_path: Path, *extra: str) -> tuple[str, str]:
    code, out, _ = cli("audit", str(project), "--gpu", "H100-80GB x8", "--format", "json", *extra)
    target = tmp_path / "report.json"
    code2, _, _ = cli("audit", str(project), "--gpu", "H100-80GB x8", "--format", "json", "-o", str(target), *extra)
    assert code == code2
    return out, target.read_text(encoding="utf-8")


def test_cli_streams_with_a_configuration(cli, tmp_path):
    project = ROOT.parent / "examples" / "quickstart"
    out, written = _cli_both(cli, project, tmp_path, "--ignore", "B4,A2", "--isolated")
    assert out == written
    checks = {c["id"] for s in json.loads(out)["sites"] for c in s["checks"]}
    assert "B4" not in checks and "A2" not in checks


def test_suppression_comments_fall_back_to_the_whole_report(cli, tmp_path):
    project = tmp_path / "p"
    project.mkdir()
    (project / "serve.sh").write_text("#!/bin/bash\n# vllm-kb: ignore[B4] -- we know\nvllm serve m --swap-space 4\n"
                                      "# vllm-kb: ignore[A2]\n")
    out, written = _cli_both(cli, project, tmp_path)
    data = json.loads(out)
    assert out == written and data["sites"][0]["suppressed"]
    codes = {f["code"] for s in data["sites"] for f in s["findings"]} | {r["check"] for s in data["sites"] for r in s["recommendations"]}
    assert any(c.startswith("suppression-") for c in codes)


def test_workers_write_the_same_report(tmp_path, monkeypatch):
    import sys

    sys.path.insert(0, str(ROOT.parent / "benchmarks"))
    import gen_repo

    tree = tmp_path / "repo"
    gen_repo.generate(tree, files=320, sites=240, seed=7)
    texts = []
    for workers in (1, 2, 3):
        rep, _sites, reports = audit_lazily(tree, gpu="H100-80GB x8")
        out = io.StringIO()
        stream.write(rep, reports, "en", out, workers=workers)
        texts.append(out.getvalue())
    assert texts[0] == texts[1] == texts[2]
    assert len(json.loads(texts[0])["sites"]) >= stream.MIN_SITES


def test_a_failing_site_sends_the_workers_back_to_one_process(tmp_path, monkeypatch):
    import sys

    from vllm_kb.engine import audit as audit_mod

    sys.path.insert(0, str(ROOT.parent / "benchmarks"))
    import gen_repo

    tree = tmp_path / "repo"
    gen_repo.generate(tree, files=260, sites=220, seed=9)
    real = audit_mod._site_report

    def flaky(site, *a, **kw):
        if site.file.endswith("svc7/serve.sh"):
            raise RuntimeError("boom")
        return real(site, *a, **kw)

    monkeypatch.setattr(audit_mod, "_site_report", flaky)
    texts = []
    for workers in (1, 2):
        rep, _sites, reports = audit_lazily(tree, gpu="H100-80GB x8")
        out = io.StringIO()
        stream.write(rep, reports, "en", out, workers=workers)
        texts.append(out.getvalue())
    assert texts[0] == texts[1] and '"code": "scanner-error"' in texts[0]


def test_remembered_check_entries_follow_the_secrets_each_audit_knows(tmp_path):
    """Each different `checks` entry is cleaned and encoded once (stream._checks): a second audit
    in the same process, whose secrets differ, must not reuse what the first one hid or showed."""
    def project(name: str, key: str) -> Path:
        p = tmp_path / name
        p.mkdir()
        (p / "serve.sh").write_text(f"#!/bin/bash\nvllm serve m --api-key {key} --swap-space 4\nvllm serve m2 --max-model-len 4096\n")
        return p

    for p in (project("a", "Zq8vTt3kLmN0pXa1"), project("b", "Rr5wYy7uIoP2sDf9"), project("a2", "Zq8vTt3kLmN0pXa1")):
        whole = json_text.dumps(model.build(audit(p, gpu="H100-80GB x8"), "en")) + "\n"
        rep, _sites, reports = audit_lazily(p, gpu="H100-80GB x8")
        out = io.StringIO()
        stream.write(rep, reports, "en", out)
        assert out.getvalue() == whole
        assert "Zq8vTt3kLmN0pXa1" not in whole and "Rr5wYy7uIoP2sDf9" not in whole


def test_check_entries_that_are_not_plain_json_go_the_whole_way():
    entries = [{"id": "A1", "fix": [{"value": float("nan")}]}, {"id": "A2", "fix": [{"value": (1, 2)}]}]
    assert stream._checks(entries)[1] is None
    plain = [{"id": "A1", "fix": [{"value": 1.5, "on": True}], "reason": "x"}] * 2
    cleaned, texts = stream._checks(plain)
    assert cleaned == model.clean(plain) and texts == [json_text.dumps_at(plain[0], 4)] * 2
