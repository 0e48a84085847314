"""The formats for machines: SARIF 2.1.0, GitHub workflow commands, JSON Lines; one exit-code
rule for all of them; the rule registry every format names rules through."""
from __future__ import annotations

import glob
import json
import os
import re
from pathlib import Path

import pytest
from vllm_kb.engine.check.rules import ENGINE_FINDINGS, rules
from vllm_kb.engine.kb.errors import EXIT_CLEAN, EXIT_FINDINGS
from vllm_kb.engine.report import jsonl

ROOT = Path(__file__).resolve().parents[1]
FORMATS = ("json", "sarif", "github", "json-lines", "markdown")


def sarif_of(cli, *args) -> dict:
    code, out, err = cli("audit", *args, "--format", "sarif", "--isolated")
    assert code in (EXIT_CLEAN, EXIT_FINDINGS), err
    return json.loads(out)


def test_sarif_shape(fixtures_dir, cli):
    log = sarif_of(cli, "stale-serve", "--gpu", "H100 x4")
    assert log["version"] == "2.1.0" and log["$schema"].endswith("sarif-2.1.0.json")
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "vllm-kb" and driver["version"]
    rules_by_id = {r["id"]: r for r in driver["rules"]}
    b4 = rules_by_id["B4"]
    assert b4["name"] == "SwapSpace" and b4["properties"]["vllm-kb-name"] == "swap-space"
    assert b4["helpUri"].endswith("/checks/B4.md") and b4["shortDescription"]["text"]
    assert b4["properties"]["priority"] == "P1" or b4["properties"]["priority"] in ("P0", "P1", "P2")
    assert rules_by_id["not-in-version"]["helpUri"].endswith("/checks/findings.md#not-in-version")
    results = run["results"]
    by_rule = {}
    for r in results:
        assert driver["rules"][r["ruleIndex"]]["id"] == r["ruleId"]
        assert re.fullmatch(r"[0-9a-f]{32}", r["partialFingerprints"]["vllmKb/v1"])
        by_rule.setdefault(r["ruleId"], []).append(r)
    # the swap-space flag is P0 on vLLM 0.33 → error, at the flag's own line, site as related location
    (swap,) = by_rule["B4"]
    assert swap["level"] == "error"
    loc = swap["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"] == {"uri": "stale-serve/scripts/serve.sh", "uriBaseId": "SRCROOT"}
    lines = (fixtures_dir / "stale-serve/scripts/serve.sh").read_text().splitlines()
    assert "--swap-space" in lines[loc["region"]["startLine"] - 1]
    assert swap["relatedLocations"][0]["physicalLocation"]["region"]["startLine"] == 13
    assert "--swap-space 16" in swap["message"]["text"]
    assert {"not-in-version", "deprecated-entrypoint"} <= set(by_rule)
    assert {r["level"] for r in by_rule["deprecated-entrypoint"]} == {"note"}  # P2
    assert run["originalUriBaseIds"]["SRCROOT"]["uri"].startswith("file://")


def test_sarif_fingerprints_are_stable(fixtures_dir, cli, tmp_path):
    import shutil

    a = sarif_of(cli, "stale-serve", "--gpu", "H100 x4")
    shutil.copytree(fixtures_dir / "stale-serve", tmp_path / "p")
    script = tmp_path / "p/scripts/serve.sh"
    script.write_text("# a new first comment\n\n" + script.read_text())
    b = sarif_of(cli, str(tmp_path / "p"), "--gpu", "H100 x4")

    def fps(log):
        return {(r["ruleId"], r["partialFingerprints"]["vllmKb/v1"]) for r in log["runs"][0]["results"]}

    def lines(log):
        return {r["partialFingerprints"]["vllmKb/v1"]: r["locations"][0]["physicalLocation"]["region"]["startLine"]
                for r in log["runs"][0]["results"]}

    assert fps(a) == fps(b)  # the same findings, though every line moved
    assert all(lines(b)[fp] == line + 2 for fp, line in lines(a).items())


def test_sarif_in_chinese_links_the_chinese_pages(fixtures_dir, cli):
    log = sarif_of(cli, "stale-serve", "--gpu", "H100 x4", "--lang", "zh", "--docs-url", "https://docs.example/v/")
    run = log["runs"][0]
    assert run["language"] == "zh-CN"
    b3 = next(r for r in run["tool"]["driver"]["rules"] if r["id"] == "B3")
    assert b3["helpUri"] == "https://docs.example/v/checks/zh/B3.md"
    assert any("KV" in r["message"]["text"] and "。" in r["message"]["text"] for r in run["results"])


def _sarif_schema() -> dict | None:
    path = os.environ.get("VLLM_KB_SARIF_SCHEMA")
    if not path:
        home = Path.home()
        cands = sorted(glob.glob(str(home / ".cache/vllm-kb-ci/sarif-multitool/*/node_modules/@microsoft/sarif-multitool-*/sarif-2.1.0.json")))
        cands += sorted(glob.glob(str(home / ".npm/_npx/*/node_modules/@microsoft/sarif-multitool-*/sarif-2.1.0.json")))
        path = cands[0] if cands else None
    if not path or not Path(path).is_file():
        return None
    return json.loads(Path(path).read_text(encoding="utf-8-sig"))


@pytest.mark.parametrize("project", ["stale-serve", "rl-verl", "deploy-helm", "no-vllm"])
def test_sarif_matches_the_sarif_schema(fixtures_dir, cli, project):
    """Against the SARIF 2.1.0 schema that Microsoft's validator ships (npm
    @microsoft/sarif-multitool; .ci/formats-check installs it and sets VLLM_KB_SARIF_SCHEMA).
    Tests never download: without a local copy this is skipped and CI's validator decides."""
    schema = _sarif_schema()
    if schema is None:
        pytest.skip("no local copy of sarif-2.1.0.json (.ci/formats-check provides one)")
    import jsonschema

    log = sarif_of(cli, project, "--gpu", "H100 x4")
    validator = jsonschema.validators.validator_for(schema)(schema)
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors[:5]]


def test_github_annotations(fixtures_dir, cli):
    code, out, err = cli("audit", "stale-serve", "--gpu", "H100 x4", "--format", "github", "--isolated")
    assert code == EXIT_FINDINGS and "site(s)" in err  # the summary is on stderr, the commands alone on stdout
    lines = out.splitlines()
    assert lines and all(re.match(r"::(error|warning|notice) file=[^,]+,(line=\d+,)?title=[^:]+::", x) for x in lines)
    swap = next(x for x in lines if "title=vllm-kb B4 swap-space" in x)
    assert swap.startswith("::error file=stale-serve/scripts/serve.sh,line=18,")
    assert "%0A" in swap and "\n" not in swap  # multi-line messages are escaped


def test_json_lines(fixtures_dir, cli):
    _, out, _ = cli("audit", "stale-serve", "--gpu", "H100 x4", "--format", "json-lines", "--isolated")
    rows = [json.loads(line) for line in out.splitlines()]
    assert rows and all(list(r) == list(jsonl.FIELDS) for r in rows)
    swap = next(r for r in rows if r["rule"] == "B4")
    assert swap["priority"] == "P0" and swap["level"] == "error" and swap["line"] == 18 and swap["safe"] and swap["fixable"]
    nv = [r for r in rows if r["rule"] == "not-in-version"]
    assert nv and all(r["id"].startswith("not-in-version:") for r in nv)
    # the same findings as the JSON report
    _, full, _ = cli("audit", "stale-serve", "--gpu", "H100 x4", "--format", "json", "--isolated")
    data = json.loads(full)
    assert len(rows) == sum(len(s["recommendations"]) + len(s["findings"]) for s in data["sites"])


@pytest.mark.parametrize("fmt", FORMATS)
def test_exit_codes_and_streams_agree_across_formats(fixtures_dir, cli, fmt, tmp_path):
    code, out, err = cli("audit", "stale-serve", "--gpu", "H100 x4", "--format", fmt, "--isolated")
    assert code == EXIT_FINDINGS and out and "site(s)" in err
    if fmt != "markdown":  # the Markdown report has the summary in its body too
        assert "site(s)" not in out
    assert cli("audit", "stale-serve", "--gpu", "H100 x4", "--format", fmt, "--isolated", "--exit-zero")[0] == EXIT_CLEAN
    assert cli("audit", "stale-serve", "--gpu", "H100 x4", "--format", fmt, "--isolated", "--fail-on", "never")[0] == EXIT_CLEAN
    code, out, err = cli("audit", "stale-serve", "--gpu", "H100 x4", "--format", fmt, "--isolated", "-q", "-o", str(tmp_path / "r"))
    assert code == EXIT_FINDINGS and out == "" and err == "" and (tmp_path / "r").read_text()
    # P0 only in stale-serve: --select another check makes it clean at the default threshold
    assert cli("audit", "stale-serve", "--gpu", "H100 x4", "--format", fmt, "--isolated", "--select", "E3")[0] == EXIT_CLEAN


def test_every_engine_finding_is_registered():
    """A Finding("code", …) raised anywhere in the engine must be in engine/check/rules.py, so that
    configs and suppressions can name it and SARIF can describe it."""
    codes = set()
    for f in (ROOT / "engine").rglob("*.py"):
        codes |= set(re.findall(r'Finding\(\s*"([a-z0-9-]+)"', f.read_text(encoding="utf-8")))
    assert codes and codes <= set(ENGINE_FINDINGS), sorted(codes - set(ENGINE_FINDINGS))


def test_rule_ids_do_not_collide():
    reg = rules()
    keys = [k.lower() for r in reg for k in r.keys]
    dup = {k for k in keys if keys.count(k) > 1 and len({r.id for r in reg if k in (x.lower() for x in r.keys)}) > 1}
    assert not dup
    assert reg.find("kv-cache-fp8").id == "B3" and reg.find("not-in-version").kind == "finding"
    assert reg.find("trl-legacy-key").kind == "framework"
    assert {r.id for r in reg.expand("B")} == {c.id for c in reg.kb.checks.in_category("B")}


def test_several_paths_report_only_what_touches_them(fixtures_dir, cli, tmp_path, monkeypatch):
    """What pre-commit passes with pass_filenames: the project around the files is audited (pins
    and --config files still count) and only the sites touching them are reported."""
    import shutil

    root = tmp_path / "p"
    shutil.copytree(fixtures_dir / "config-yaml", root)
    (root / "deploy/other.sh").write_text("vllm serve Qwen/Qwen2.5-7B-Instruct --swap-space 4\n")
    (root / "notes.txt").write_text("x\n")
    monkeypatch.chdir(root)
    _, out, _ = cli("audit", "deploy/serve.yaml", "notes.txt", "--gpu", "H100 x4", "--format", "json", "--isolated")
    sites = json.loads(out)["sites"]
    assert [s["file"] for s in sites] == ["deploy/start.sh"]  # through its --config deploy/serve.yaml
    assert sites[0]["config_file"] == "deploy/serve.yaml"
    _, out, _ = cli("audit", "deploy/other.sh", "notes.txt", "--gpu", "H100 x4", "--format", "json", "--isolated")
    assert [s["file"] for s in json.loads(out)["sites"]] == ["deploy/other.sh"]


def test_progress_covers_every_phase_only_on_a_terminal(tmp_path, monkeypatch, cli):
    from vllm_kb.cli import progress as progress_mod

    for i in range(50):
        (tmp_path / f"f{i}.txt").write_text("x\n")
    (tmp_path / "serve.sh").write_text("vllm serve m --swap-space 4\n")
    seen: list[tuple[str, bool]] = []
    real = progress_mod.Progress.__call__

    def spy(self, phase, total):
        real(self, phase, total)
        seen.append((phase, self.bar is not None))

    closed = []
    real_close = progress_mod.Progress.close
    monkeypatch.setattr(progress_mod.Progress, "close", lambda self: closed.append(self.bar) or real_close(self))
    monkeypatch.setattr(progress_mod.Progress, "__call__", spy)
    monkeypatch.setattr(progress_mod, "DELAY_S", 0.0)
    monkeypatch.setattr("sys.stderr.isatty", lambda: True, raising=False)
    _, out, _ = cli("audit", str(tmp_path), "--gpu", "H100 x1", "--format", "json", "--isolated")
    assert json.loads(out)["sites"]
    assert [p for p in dict.fromkeys(p for p, shown in seen if shown)] == ["walk", "scan", "check", "render"]
    assert closed and closed[-1] is not None  # the display was stopped, before the report was written
    seen.clear()
    cli("audit", str(tmp_path), "--gpu", "H100 x1", "--format", "json", "--isolated", "-q")
    assert not any(shown for _, shown in seen)
    monkeypatch.setattr("sys.stderr.isatty", lambda: False, raising=False)
    seen.clear()
    cli("audit", str(tmp_path), "--gpu", "H100 x1", "--format", "json", "--isolated")
    assert not any(shown for _, shown in seen)