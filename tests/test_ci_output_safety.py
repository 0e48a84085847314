"""The CI faces show a scanned project's text, never obey it and never leak it: a flag value with
escape sequences (`--dtype "\\e]0;…\\a\\e[2J…"`) and a secret in flag values and the environment
reach `--format concise`, `--format gitlab`, `--statistics` (text and JSON) and what the GitHub
Action writes (annotations and SARIF) only escaped and redacted, as every other format
(engine/kb/safe_text.py, engine/kb/redact.py)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

GPU = ("--gpu", "H100-80GB x8")
# ESC, BEL, a C1 CSI, a bidi override, a zero-width space, a CR that does not end a line, DEL
RAW = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200b]|\r(?!\n)")
HOSTILE = "\x1b]0;pwned\x07\x1b[2J\x9b31m\u202eevil\u200b\rX\x7f"
SECRET = "hf_PLANTEDciSecretToken0123456789ab"


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("ci-hostile")
    (root / "requirements.txt").write_text("vllm==0.33.0\n")
    (root / "serve.sh").write_text(
        "#!/bin/bash\n"
        f"export HF_TOKEN={SECRET}\n"
        f"vllm serve Qwen/Qwen2.5-7B-Instruct --dtype '{HOSTILE}' --kv-cache-dtype '{SECRET}' "
        f"--api-key '{SECRET}{HOSTILE}' --swap-space 4\n")
    return root


@pytest.mark.parametrize("args", [
    ("--format", "concise"), ("--format", "gitlab"), ("--statistics",), ("--statistics", "--format", "json"),
    ("--format", "github"), ("--format", "sarif"),
], ids=lambda a: " ".join(a))
def test_ci_outputs_carry_no_control_character_and_no_secret(project, cli, args):
    code, out, err = cli("audit", str(project), *GPU, *args)
    assert code in (0, 1), err
    assert out.strip(), "the audit wrote something to check"
    assert not RAW.findall(out + err), sorted({repr(c) for c in RAW.findall(out + err)})
    assert "PLANTED" not in out + err
    if args[-1] in ("concise", "github"):
        assert "\\x1b" in out  # the value is shown, escaped, not dropped
    if args[-1] in ("gitlab", "sarif", "json"):
        json.loads(out)  # still valid JSON


def test_the_action_step_writes_nothing_raw(project, cli, tmp_path):
    """The action's audit step: annotations on stdout, SARIF to a file."""
    sarif = tmp_path / "vllm-kb.sarif"
    code, out, err = cli("audit", str(project), *GPU, "--format", "github")
    code2, _, err2 = cli("audit", str(project), *GPU, "--format", "sarif", "-o", str(sarif))
    text = sarif.read_text(encoding="utf-8")
    assert code in (0, 1) and code2 in (0, 1)
    assert not RAW.findall(out + err + err2 + text) and "PLANTED" not in out + text
