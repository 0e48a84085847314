"""The GitHub Action (action.yml), run the way a runner runs a composite action: each `run:` step
under bash with its `env:` (inputs substituted), `$GITHUB_OUTPUT`, `$RUNNER_TEMP` and
`$GITHUB_ACTION_PATH`; the `uses:` steps (setup-python, upload-sarif) are GitHub's own. CI also
checks action.yml against the GitHub Actions schema (.ci/package-check, check-jsonschema)."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
EXPR = re.compile(r"\$\{\{\s*(?P<expr>[^}]+?)\s*\}\}")


def test_the_action_is_composite_and_injection_safe():
    assert ACTION["runs"]["using"] == "composite"
    steps = ACTION["runs"]["steps"]
    uses = [s["uses"] for s in steps if "uses" in s]
    assert "github/codeql-action/upload-sarif@v4" in uses and any(u.startswith("actions/setup-python@") for u in uses)
    for s in steps:
        if "run" in s:
            assert s.get("shell") == "bash", s["name"]
            # an input pasted into a script is a script injection: inputs reach scripts as env only
            assert "${{" not in s["run"], s["name"]
        for expr in EXPR.findall(json.dumps(s)):
            for ref in re.findall(r"inputs\.([\w-]+)", expr):
                assert ref in ACTION["inputs"], f"{s['name']}: unknown input {ref}"
    ids = {s.get("id") for s in steps}
    for out in ACTION["outputs"].values():
        assert EXPR.search(out["value"])["expr"].split(".")[1] in ids


def _value(expr: str, inputs: dict, outputs: dict) -> str:
    m = re.fullmatch(r"inputs\.([\w-]+)", expr)
    if m:
        return inputs.get(m[1], ACTION["inputs"][m[1]].get("default", ""))
    m = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expr)
    if m:
        return outputs.get(m[1], {}).get(m[2], "")
    raise AssertionError(f"an expression the test runner does not know: {expr}")


def run_action(workdir: Path, tmp: Path, inputs: dict, path_dirs: list[Path]) -> tuple[dict, list[tuple[str, int, str]]]:
    """Run the action's `run:` steps in order; (step outputs by id, [(name, exit code, stdout)])."""
    outputs: dict[str, dict[str, str]] = {}
    results = []
    failed = False
    for n, step in enumerate(ACTION["runs"]["steps"]):
        if "run" not in step:
            continue
        cond = step.get("if", "")
        if failed and "always()" not in cond:
            continue
        out_file = tmp / f"output-{n}"
        out_file.write_text("")
        env = dict(os.environ, GITHUB_ACTION_PATH=str(ROOT), RUNNER_TEMP=str(tmp), GITHUB_OUTPUT=str(out_file),
                   PATH=os.pathsep.join([*map(str, path_dirs), os.environ.get("PATH", "")]))
        env.pop("VLLM_KB_DOCS_URL", None)
        for k, v in (step.get("env") or {}).items():
            env[k] = EXPR.sub(lambda m: _value(m["expr"], inputs, outputs), str(v))
        run = subprocess.run(["bash", "--noprofile", "--norc", "-e", "-o", "pipefail", "-c", step["run"]], cwd=workdir,
                             env=env, capture_output=True, text=True, timeout=300)
        results.append((step["name"], run.returncode, run.stdout + run.stderr))
        if step.get("id"):
            outputs[step["id"]] = dict(line.split("=", 1) for line in out_file.read_text().splitlines() if "=" in line)
        failed = failed or run.returncode != 0
    return outputs, results


@pytest.fixture
def runner(tmp_path):
    work = tmp_path / "repo"
    shutil.copytree(ROOT / "examples/quickstart", work)
    # `python -m pip install …` is recorded, not run: the wheel install is .ci/package-check's
    fake = tmp_path / "fake-bin"
    fake.mkdir()
    (fake / "python").write_text(f'#!/bin/sh\necho "$@" >> "{tmp_path}/pip-calls"\n')
    (fake / "python").chmod(0o755)
    venv_bin = Path(sys.executable).parent
    return work, tmp_path, [fake, venv_bin]


def test_the_action_annotates_writes_sarif_and_fails_on_p0(runner):
    work, tmp, dirs = runner
    outputs, results = run_action(work, tmp, {"gpu": "H100-80GB x8"}, dirs)
    by_name = {name: (code, out) for name, code, out in results}
    assert f"-m pip install --disable-pip-version-check --quiet {ROOT}" in (tmp / "pip-calls").read_text()
    assert by_name["Install vllm-kb"][0] == 0 and "vllm-kb " in by_name["Install vllm-kb"][1]
    code, out = by_name["Audit (annotations on the diff)"]
    assert code == 0 and outputs["audit"]["exit-code"] == "1"
    assert re.search(r"^::error file=deploy/serve\.sh,line=14,title=vllm-kb B4 swap-space::", out, re.M)
    sarif = json.loads((work / "vllm-kb.sarif").read_text())
    assert outputs["sarif"]["sarif-file"] == "vllm-kb.sarif" and sarif["runs"][0]["results"]
    assert sarif["runs"][0]["tool"]["driver"]["rules"][0]["helpUri"].startswith("https://github.com/")
    assert by_name["Verdict"][0] == 1  # the job fails on the P0, after the SARIF step


def test_the_action_passes_its_inputs_through(runner):
    work, tmp, dirs = runner
    outputs, results = run_action(work, tmp, {"gpu": "H100-80GB x8", "fail-on": "never", "path": "deploy",
                                              "args": "--select B4,A2", "sarif-file": "out/x.sarif", "version": "0.1.0"},
                                  dirs)
    assert "vllm-kb==0.1.0" in (tmp / "pip-calls").read_text()
    assert outputs["audit"]["exit-code"] == "0" and dict((n, c) for n, c, _ in results)["Verdict"] == 0
    sarif = json.loads((work / "out/x.sarif").read_text()) if (work / "out").is_dir() else None
    if sarif is None:  # -o into a folder that does not exist is the user's to make
        pytest.fail("the SARIF file was not written")
    rules = {r["ruleId"] for r in sarif["runs"][0]["results"]}
    assert rules <= {"B4", "A2"} and rules


def test_an_input_is_never_run_as_shell(runner):
    work, tmp, dirs = runner
    outputs, results = run_action(work, tmp, {"gpu": "H100 x1; touch pwned", "path": "$(touch pwned2)"}, dirs)
    assert not (work / "pwned").exists() and not (work / "pwned2").exists()
    assert outputs["audit"]["exit-code"] == "2"  # a usage error, reported as one
    assert dict((n, c) for n, c, _ in results)["Verdict"] == 2
