"""Suppression comments where the setting is written, the findings about them, and baselines."""
from __future__ import annotations

import json

import pytest
from vllm_kb.engine.check import suppressions
from vllm_kb.engine.kb.errors import EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE

SERVE = """#!/bin/bash
# vllm-kb: ignore[B4] -- the cluster image is still 0.17
# vllm-kb: ignore[A2, B99] -- debugging the kernels
vllm serve meta-llama/Llama-3.1-8B-Instruct \\
    --swap-space 8 \\
    --enforce-eager \\
    --max-num-seqs 256
"""
JOB = """from vllm import LLM

llm = LLM(
    "Qwen/Qwen2.5-7B-Instruct",
    gpu_memory_utilization=0.5,  # vllm-kb: ignore[gpu-memory-utilization] -- shares the GPU with a reward model
    enable_prefix_caching=False,  # vllm-kb: ignore[E4]
)
# vllm-kb: ignore[F3] -- nothing here uses MLA
"""
CONFIG = """# vllm-kb: ignore[B3] -- accuracy-sensitive eval box
kv-cache-dtype: auto
swap-space: 4  # vllm-kb: ignore[swap-space] -- set by the platform team
"""


@pytest.fixture
def project(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    (tmp_path / "requirements.txt").write_text("vllm==0.33.0\n")
    (tmp_path / "deploy").mkdir()
    (tmp_path / "deploy/serve.sh").write_text(SERVE)
    (tmp_path / "job.py").write_text(JOB)
    (tmp_path / ".vllm-kb.toml").write_text('gpu = "H100 x1"\n')
    monkeypatch.chdir(tmp_path)
    return tmp_path


def audit(cli, *args):
    code, out, err = cli("audit", "--format", "json", *args)
    assert code in (EXIT_CLEAN, EXIT_FINDINGS), err
    return json.loads(out)


def recs(data, file=None):
    return [(r["check"].split(":")[0], r["location"]["file"], r["location"]["line"]) for s in data["sites"]
            for r in s["recommendations"] if file is None or r["location"]["file"] == file]


def test_parse_comment_forms():
    got = suppressions.parse("x.sh", "a  # vllm-kb: ignore[B3, kv-cache-fp8,Z9] -- why\n# vllm-kb: ignore\n"
                                     "# vllm-kb:ignore[B4]\nb\nx = '# not vllm-kb: ignore[B3]'\n")
    assert [(c.line, sorted(c.ids), c.unknown, c.reason, c.bare, c.below) for c in got] == [
        (1, ["B3"], ["Z9"], "why", False, 0), (2, [], [], "", True, 4), (3, ["B4"], [], "", False, 4)]


def test_comments_suppress_where_the_setting_is_written(project, cli):
    data = audit(cli)
    rules = {r for r, _, _ in recs(data)}
    assert "B4" not in rules and "A2" not in rules and "B1" not in rules  # suppressed (block above the command, trailing)
    sup = {(x["rule"], x["kind"], x["where"], x["reason"]) for s in data["sites"] for x in s["suppressed"]}
    assert ("B4", "comment", "deploy/serve.sh:2", "the cluster image is still 0.17") in sup
    assert ("B1", "comment", "job.py:5", "shares the GPU with a reward model") in sup
    # what the comments themselves say
    meta = {(r, f, line) for r, f, line in recs(data) if r.startswith("suppression-")}
    assert ("suppression-unknown-rule", "deploy/serve.sh", 3) in meta  # B99
    assert ("suppression-no-reason", "job.py", 6) in meta
    assert ("E4", "job.py", 6) in set(recs(data))  # … and without a reason it suppresses nothing
    assert ("suppression-unused", "job.py", 8) in meta
    assert not any(r == "suppression-unused" and f == "deploy/serve.sh" for r, f, _ in meta)


def test_suppressions_in_a_config_yaml(project, cli):
    (project / "deploy/serve.yaml").write_text(CONFIG)
    (project / "deploy/serve.sh").write_text("vllm serve meta-llama/Llama-3.1-8B-Instruct --config deploy/serve.yaml\n")
    data = audit(cli)
    rules = {r for r, f, _ in recs(data, "deploy/serve.yaml")}
    assert not rules & {"B3", "B4"}
    assert {x["where"] for s in data["sites"] for x in s["suppressed"]} >= {"deploy/serve.yaml:1", "deploy/serve.yaml:3"}


def test_suppressed_fixes_are_not_planned_or_applied(project, cli):
    data = audit(cli)
    site = next(s for s in data["sites"] if s["file"] == "deploy/serve.sh")
    assert not any(c["target"] == "swap_space" for c in site["changes"])
    _, out, _ = cli("audit", "--diff")
    assert "--swap-space" not in out
    cli("audit", "--fix", "--unsafe-fixes", "--format", "json")
    assert "--swap-space 8" in (project / "deploy/serve.sh").read_text()


def test_ignoring_the_suppression_findings(project, cli):
    (project / ".vllm-kb.toml").write_text('gpu = "H100 x1"\nignore = ["suppression-unused", "suppression-no-reason"]\n')
    rules = {r for r, _, _ in recs(audit(cli))}
    assert "suppression-unused" not in rules and "suppression-no-reason" not in rules
    assert "suppression-unknown-rule" in rules


def test_sarif_lists_suppressed_results_as_suppressed(project, cli):
    _, out, _ = cli("audit", "--format", "sarif")
    results = json.loads(out)["runs"][0]["results"]
    b4 = next(r for r in results if r["ruleId"] == "B4")
    assert b4["suppressions"] == [{"kind": "inSource", "justification": "the cluster image is still 0.17",
                                   "location": b4["suppressions"][0]["location"]}]
    assert b4["suppressions"][0]["location"]["physicalLocation"]["region"]["startLine"] == 2


def test_baseline_written_then_hides_known_findings(project, cli):
    base = project / "baseline.json"
    code, out, err = cli("audit", "--baseline", str(base), "--update-baseline", "--format", "json-lines", "--fail-on", "P2")
    doc = json.loads(base.read_text())
    assert doc["version"] == 1 and doc["findings"] and "wrote the baseline" in err
    assert all(not r["rule"].startswith("suppression-") for r in doc["findings"])
    # the run that wrote it hides what it wrote: only the comment findings remain
    assert {json.loads(x)["rule"] for x in out.splitlines()} <= {"suppression-unknown-rule", "suppression-no-reason", "suppression-unused"}
    # lines move and a new problem arrives: only the new one is reported
    script = project / "deploy/serve.sh"
    script.write_text(script.read_text().replace("#!/bin/bash\n", "#!/bin/bash\n# moved\n\n").replace(
        "--max-num-seqs 256", "--max-num-seqs 256 \\\n    --num-scheduler-steps 4"))
    code, out, err = cli("audit", "--baseline", str(base), "--format", "json-lines", "--select", "B,not-in-version")
    assert [json.loads(x)["id"] for x in out.splitlines()] == ["not-in-version:num_scheduler_steps"]
    assert code == EXIT_FINDINGS and "hidden by the baseline" in err
    # --update-baseline accepts it
    cli("audit", "--baseline", str(base), "--update-baseline", "--format", "json")
    code, out, _ = cli("audit", "--baseline", str(base), "--format", "json-lines", "--select", "B,not-in-version")
    assert code == EXIT_CLEAN and out == ""


def test_a_missing_baseline_is_an_error_that_names_it_and_writes_nothing(project, cli):
    # a misspelt path in CI must not write a fresh baseline that hides every finding
    code, out, err = cli("audit", "--baseline", "basline.json", "--format", "json-lines")
    assert code == EXIT_USAGE and out == "" and "basline.json" in err and "--update-baseline" in err
    assert not (project / "basline.json").exists()
    # the same from the configuration's `baseline` key, and in Chinese
    (project / ".vllm-kb.toml").write_text('gpu = "H100 x1"\nbaseline = "ci/baseline.json"\n')
    code, _, err = cli("audit", "--lang", "zh")
    assert code == EXIT_USAGE and "baseline.json" in err and "基线文件" in err
    assert not (project / "ci").exists()
    # --update-baseline is what creates it (folders included)
    code, _, err = cli("audit", "--update-baseline", "--format", "json")
    assert code in (EXIT_CLEAN, EXIT_FINDINGS) and (project / "ci/baseline.json").is_file() and "wrote the baseline" in err
    assert cli("audit", "--format", "json")[0] in (EXIT_CLEAN, EXIT_FINDINGS)


def test_a_broken_baseline_is_a_usage_error(project, cli):
    (project / "b.json").write_text("{not json")
    code, _, err = cli("audit", "--baseline", "b.json")
    assert code == EXIT_USAGE and "b.json is not a vllm-kb baseline" in err
    assert cli("audit", "--update-baseline")[0] == EXIT_USAGE
