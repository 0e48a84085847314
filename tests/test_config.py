"""Configuration: where it is found, what it may say, flags winning over it, and errors that name
the file and the key (exit 2)."""
from __future__ import annotations

import json
import shutil

import pytest
from vllm_kb.engine.check import config
from vllm_kb.engine.kb.errors import EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE

SERVE = """#!/bin/bash
vllm serve meta-llama/Llama-3.1-8B-Instruct \\
    --swap-space 8 \\
    --enforce-eager
"""


@pytest.fixture
def project(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    (tmp_path / "requirements.txt").write_text("vllm==0.33.0\n")
    (tmp_path / "deploy").mkdir()
    (tmp_path / "deploy/serve.sh").write_text(SERVE)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def rules_in(cli, *args):
    code, out, err = cli("audit", *args, "--format", "json-lines")
    assert code in (EXIT_CLEAN, EXIT_FINDINGS), err
    return code, {json.loads(x)["rule"] for x in out.splitlines()}


def test_pyproject_table_and_flags_win(project, cli):
    (project / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.vllm-kb]\ngpu = "H100 x1"\nignore = ["B4", "not-in-version"]\n'
                                            'fail-on = "P1"\nformat = "json-lines"\n')
    code, out, _ = cli("audit")
    rows = [json.loads(x) for x in out.splitlines()]  # format from the config
    assert rows and "B4" not in {r["rule"] for r in rows} and "A2" in {r["rule"] for r in rows}
    assert code == EXIT_FINDINGS  # fail-on P1 from the config: A2 is P1
    assert cli("audit", "--fail-on", "P0")[0] == EXIT_CLEAN  # the flag wins
    _, got = rules_in(cli, "--isolated", "--gpu", "H100 x1")
    assert "B4" in got  # --isolated reads no file


def test_nearest_file_wins_and_vllm_kb_toml_beats_pyproject(project, cli):
    (project / "pyproject.toml").write_text('[tool.vllm-kb]\ngpu = "H100 x1"\nignore = ["B4"]\n')
    (project / "deploy/.vllm-kb.toml").write_text('gpu = "H100 x1"\nignore = ["A2"]\n')
    assert config.find(project / "deploy").name == ".vllm-kb.toml"
    assert config.find(project) == project / "pyproject.toml"
    _, got = rules_in(cli, "deploy")
    assert "A2" not in got and "B4" in got
    (project / ".vllm-kb.toml").write_text('gpu = "H100 x1"\nselect = ["B"]\n')
    assert config.find(project).name == ".vllm-kb.toml"
    _, got = rules_in(cli, ".")
    assert got and all(r.startswith("B") for r in got)


def test_search_stops_at_the_project_root(tmp_path, monkeypatch):
    (tmp_path / ".vllm-kb.toml").write_text('ignore = ["B3"]\n')
    inner = tmp_path / "repo"
    (inner / ".git").mkdir(parents=True)
    (inner / "sub").mkdir()
    assert config.find(inner / "sub") is None
    assert config.find(tmp_path) == tmp_path / ".vllm-kb.toml"
    (inner / "pyproject.toml").write_text('[project]\nname = "no-table"\n')
    assert config.find(inner / "sub") is None  # a pyproject.toml without [tool.vllm-kb] is passed over


def test_per_file_ignores_and_exclude(project, cli):
    shutil.copy(project / "deploy/serve.sh", project / "deploy/dev.sh")
    (project / ".vllm-kb.toml").write_text('gpu = "H100 x1"\n[per-file-ignores]\n"deploy/dev.sh" = ["B4", "kv-cache-fp8"]\n')
    _, out, _ = cli("audit", "--format", "json-lines")
    rows = [json.loads(x) for x in out.splitlines()]
    assert {r["rule"] for r in rows if r["file"] == "deploy/dev.sh"}.isdisjoint({"B4", "B3"})
    assert {"B4", "B3"} <= {r["rule"] for r in rows if r["file"] == "deploy/serve.sh"}
    (project / ".vllm-kb.toml").write_text('gpu = "H100 x1"\nexclude = ["dev.sh"]\n')
    _, out, _ = cli("audit", "--format", "json")
    assert [s["file"] for s in json.loads(out)["sites"]] == ["deploy/serve.sh"]
    _, out, _ = cli("audit", "--format", "json", "--exclude", "deploy/**")
    assert json.loads(out)["sites"] == []


@pytest.mark.parametrize("text, expected", [
    ('ignore = ["B3", "B99"]\n', ".vllm-kb.toml › ignore[1]: unknown check 'B99'"),
    ('fail_on = "P1"\n', ".vllm-kb.toml › fail_on: unknown key 'fail_on' (did you mean 'fail-on'?)"),
    ('lang = "fr"\n', ".vllm-kb.toml › lang: expected one of en, zh, got 'fr'"),
    ('select = "B3"\n', ".vllm-kb.toml › select: expected a list of strings"),
    ('vllm-version = "banana"\n', ".vllm-kb.toml › vllm-version: 'banana' is not a version number"),
    ('gpu = "Z9000"\n', ".vllm-kb.toml › gpu: unknown GPU 'Z9000'"),
    ('[per-file-ignores]\n"tests/**" = ["Z1"]\n', '.vllm-kb.toml › per-file-ignores."tests/**"[0]: unknown check \'Z1\''),
    ('x = [\n', ".vllm-kb.toml: invalid TOML"),
])
def test_config_errors_name_the_file_and_key(project, cli, text, expected):
    (project / ".vllm-kb.toml").write_text(text)
    code, out, err = cli("audit")
    assert code == EXIT_USAGE and out == ""
    assert expected in err


def test_errors_in_pyproject_name_the_table(project, cli):
    (project / "pyproject.toml").write_text('[tool.vllm-kb]\nignore = ["nope"]\nformat = "xml"\n')
    code, _, err = cli("audit", "--lang", "zh")
    assert code == EXIT_USAGE
    assert "pyproject.toml › tool.vllm-kb.ignore[0]: 未知检查项 'nope'" in err
    assert "pyproject.toml › tool.vllm-kb.format: 应为" in err


def test_cli_select_and_ignore_take_names_and_categories(project, cli):
    _, got = rules_in(cli, "--gpu", "H100 x1", "--select", "swap-space,A")
    assert got and got <= {"B4"} | {f"A{i}" for i in range(1, 10)}
    code, _, err = cli("audit", "--gpu", "H100 x1", "--ignore", "B99")
    assert code == EXIT_USAGE and "--ignore: unknown check 'B99'" in err
    code, _, err = cli("audit", "--config", "missing.toml")
    assert code == EXIT_USAGE and "missing.toml" in err


def test_globs():
    m = config.glob_match
    assert m("tests/**", "tests/a/b.sh") and m("tests/**", "tests/x.py") and not m("tests/**", "src/tests.py")
    assert m("*.sh", "deploy/serve.sh") and m("legacy", "a/legacy/x.py") and not m("*.sh", "deploy/serve.py")
    assert m("deploy/*.yaml", "deploy/x.yaml") and not m("deploy/*.yaml", "deploy/sub/x.yaml")
    assert m("**/serve.sh", "a/b/serve.sh") and m("**/serve.sh", "serve.sh") and m("./deploy", "deploy/x")
