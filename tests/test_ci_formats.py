"""The formats CI systems and ruff users reach for: `--format concise` (one `file:line:col: ID
message` per finding), `--format gitlab` (GitLab Code Quality), `--statistics` (counts per
rule); and where SARIF rules link (the docs URL: flag, environment, configuration, default)."""
from __future__ import annotations

import json
import re

import pytest
from vllm_kb.engine.kb import about
from vllm_kb.engine.kb.errors import EXIT_CLEAN, EXIT_FINDINGS

ARGS = ("stale-serve", "--gpu", "H100 x4", "--isolated")
CONCISE = re.compile(r"(?P<file>[^:\s]+):(?P<line>\d+):(?P<col>\d+): (?P<id>[A-Za-z0-9-]+)(?P<fix> \[\*\])?"
                     r"(?: \[(?P<prio>P[012])\])? (?P<message>\S.*)")
# The fields GitLab documents for a Code Quality report (docs.gitlab.com/ci/testing/code_quality/)
GITLAB_SCHEMA = {
    "type": "array",
    "items": {
        "type": "object",
        "required": ["description", "check_name", "fingerprint", "severity", "location"],
        "properties": {
            "description": {"type": "string", "minLength": 1},
            "check_name": {"type": "string", "minLength": 1},
            "fingerprint": {"type": "string", "pattern": "^[0-9a-f]{32}$"},
            "severity": {"enum": ["info", "minor", "major", "critical", "blocker"]},
            "categories": {"type": "array", "items": {"enum": ["Bug Risk", "Clarity", "Compatibility", "Complexity",
                                                                "Duplication", "Performance", "Security", "Style"]}},
            "location": {"type": "object", "required": ["path", "lines"],
                         "properties": {"path": {"type": "string", "not": {"pattern": "^(/|\\./)"}},
                                        "lines": {"type": "object", "required": ["begin"],
                                                  "properties": {"begin": {"type": "integer", "minimum": 1}}}}},
        },
    },
}


def rows(cli, *args) -> list[dict]:
    _, out, _ = cli("audit", *ARGS, *args, "--format", "json-lines")
    return [json.loads(x) for x in out.splitlines()]


def test_concise_is_one_line_per_finding(fixtures_dir, cli):
    code, out, err = cli("audit", *ARGS, "--format", "concise")
    assert code == EXIT_FINDINGS and "site(s)" in err and "site(s)" not in out
    lines = out.splitlines()
    found = rows(cli)
    assert len(lines) == len(found)
    parsed = [CONCISE.fullmatch(x) for x in lines]
    assert all(parsed), [x for x, m in zip(lines, parsed) if not m][:3]
    for m, r in zip(parsed, found):
        assert m["file"] == f"stale-serve/{r['file']}" and int(m["line"]) == (r["line"] or 1) and m["col"] == "1"
        assert m["id"] == r["rule"] and m["prio"] == r["priority"] and bool(m["fix"]) == (r["fixable"] and r["safe"])
    swap = next(m for m in parsed if m["id"] == "B4")
    assert swap["file"] == "stale-serve/scripts/serve.sh" and swap["line"] == "18" and swap["fix"] and swap["prio"] == "P0"
    assert "swap" in swap["message"].lower()


def test_gitlab_code_quality(fixtures_dir, cli):
    import jsonschema

    code, out, err = cli("audit", *ARGS, "--format", "gitlab")
    assert code == EXIT_FINDINGS and "site(s)" in err
    issues = json.loads(out)
    jsonschema.validate(issues, GITLAB_SCHEMA)
    found = rows(cli)
    assert len(issues) == len(found) and len({i["fingerprint"] for i in issues}) == len(issues)
    sev = {"P0": "critical", "P1": "major", "P2": "minor", None: "info"}
    for i, r in zip(issues, found):
        assert i["check_name"] == r["rule"] and i["severity"] == sev[r["priority"]]
        assert i["location"] == {"path": f"stale-serve/{r['file']}", "lines": {"begin": r["line"] or 1}}
    swap = next(i for i in issues if i["check_name"] == "B4")
    assert "--swap-space 16" in swap["description"] and swap["categories"] == ["Performance"]
    # the same project gives the same fingerprints (GitLab compares them between the branches)
    assert [i["fingerprint"] for i in json.loads(cli("audit", *ARGS, "--format", "gitlab")[1])] == [i["fingerprint"] for i in issues]
    # nothing found: an empty list, still valid JSON
    assert json.loads(cli("audit", "no-vllm", "--gpu", "H100 x4", "--isolated", "--format", "gitlab")[1]) == []


def test_gitlab_fingerprints_stay_unique_for_twin_sites(tmp_path, cli, monkeypatch):
    (tmp_path / "requirements.txt").write_text("vllm==0.33.0\n")
    serve = "vllm serve meta-llama/Llama-3.1-8B-Instruct --swap-space 4\n"
    (tmp_path / "a.sh").write_text(serve + serve)
    monkeypatch.chdir(tmp_path)
    issues = json.loads(cli("audit", ".", "--gpu", "H100", "--isolated", "--format", "gitlab")[1])
    assert sum(i["check_name"] == "B4" for i in issues) == 2
    assert len({i["fingerprint"] for i in issues}) == len(issues)


def test_statistics_count_findings_per_rule(fixtures_dir, cli):
    code, out, err = cli("audit", *ARGS, "--statistics")
    assert code == EXIT_FINDINGS and "site(s)" in err and "site(s)" not in out
    found = rows(cli)
    lines = [x.split("\t") for x in out.splitlines()]
    assert all(len(x) == 4 for x in lines) and sum(int(x[0]) for x in lines) == len(found)
    counts = [int(x[0]) for x in lines]
    assert counts == sorted(counts, reverse=True)
    b4 = next(x for x in lines if x[1].strip() == "B4")
    assert b4[2].strip() == "P0" and b4[3] == "[*] swap-space"
    data = json.loads(cli("audit", *ARGS, "--statistics", "--format", "json")[1])
    assert {(d["code"], d["count"]) for d in data} == {(x[1].strip(), int(x[0])) for x in lines}
    assert next(d for d in data if d["code"] == "B4") == {"code": "B4", "name": "swap-space", "priority": "P0", "count": 1, "fixable": 1}
    assert cli("audit", *ARGS, "--statistics", "--exit-zero")[0] == EXIT_CLEAN


@pytest.mark.parametrize("fmt", ["gitlab", "concise"])
def test_exit_codes_and_streams(fixtures_dir, cli, fmt, tmp_path):
    assert cli("audit", *ARGS, "--format", fmt, "--exit-zero")[0] == EXIT_CLEAN
    assert cli("audit", *ARGS, "--format", fmt, "--select", "E3")[0] == EXIT_CLEAN
    code, out, err = cli("audit", *ARGS, "--format", fmt, "-q", "-o", str(tmp_path / "r"))
    assert code == EXIT_FINDINGS and out == "" and err == "" and (tmp_path / "r").read_text()


def _help_uri(cli, *args) -> str:
    _, out, _ = cli("audit", *ARGS, "--format", "sarif", *args)
    rules = json.loads(out)["runs"][0]["tool"]["driver"]["rules"]
    return next(r["helpUri"] for r in rules if r["id"] == "B4")


def test_sarif_links_default_to_this_releases_pages_in_the_repository(fixtures_dir, cli, monkeypatch):
    monkeypatch.delenv("VLLM_KB_DOCS_URL", raising=False)
    assert _help_uri(cli) == f"{about.REPOSITORY}/blob/v{about.__version__}/docs/checks/B4.md"
    _, out, _ = cli("audit", *ARGS, "--format", "sarif")
    assert json.loads(out)["runs"][0]["tool"]["driver"]["informationUri"] == about.REPOSITORY


def test_docs_url_flag_beats_environment_beats_configuration(fixtures_dir, cli, monkeypatch, tmp_path):
    monkeypatch.delenv("VLLM_KB_DOCS_URL", raising=False)
    cfg = tmp_path / "c.toml"
    cfg.write_text('docs-url = "https://config.example/docs/"\n')
    args = ("stale-serve", "--gpu", "H100 x4", "--format", "sarif", "--config", str(cfg))

    def uri(*extra):
        _, out, _ = cli("audit", *args, *extra)
        return next(r["helpUri"] for r in json.loads(out)["runs"][0]["tool"]["driver"]["rules"] if r["id"] == "B4")

    assert uri() == "https://config.example/docs/checks/B4.md"
    monkeypatch.setenv("VLLM_KB_DOCS_URL", "https://env.example/d")
    assert uri() == "https://env.example/d/checks/B4.md"
    assert uri("--docs-url", "https://flag.example/") == "https://flag.example/checks/B4.md"
