"""--fix on a Python argv list (`subprocess.Popen([...])`): an option vLLM no longer has is taken out of
the list literal that writes it — its items and their comma, byte-exact, once — and the file still
parses; an item that is not a string in a list literal (an `.append` argument, a name) is told, not
written. atropos environments/community/mcp_tool_calling/grpo.py:281 (`"--disable-log-requests"`,
gone from vLLM 0.18.0's vllm/engine/arg_utils.py)."""
import ast
from pathlib import Path

import pytest

GPU = ("--gpu", "H100 x4", "--isolated")
HEAD = "import subprocess\n\n\ndef launch(m):\n"
CASES = {
    # (vLLM pin, body, the body once fixed; None: told, not written)
    "own-line": ("0.18.0", '    cmd = [\n        "vllm",\n        "serve",\n        m,\n        "--port",\n        "8000",\n'
                 '        "--disable-log-requests",\n    ]\n    return subprocess.Popen(cmd)\n',
                 '    cmd = [\n        "vllm",\n        "serve",\n        m,\n        "--port",\n        "8000",\n'
                 '    ]\n    return subprocess.Popen(cmd)\n'),
    "mid-line": ("0.18.0", '    return subprocess.Popen(["vllm", "serve", m, "--disable-log-requests", "--port", "8000"])\n',
                 '    return subprocess.Popen(["vllm", "serve", m, "--port", "8000"])\n'),
    "last-inline": ("0.18.0", '    return subprocess.Popen(["vllm", "serve", m, "--port", "8000", "--disable-log-requests"])\n',
                    '    return subprocess.Popen(["vllm", "serve", m, "--port", "8000"])\n'),
    "with-value": ("0.20.0", '    return subprocess.run(["vllm", "serve", m, "--swap-space", "4", "--port", "8000"])\n',
                   '    return subprocess.run(["vllm", "serve", m, "--port", "8000"])\n'),
    "appended": ("0.18.0", '    cmd = ["vllm", "serve", m, "--port", "8000"]\n    cmd.append("--disable-log-requests")\n'
                 '    return subprocess.Popen(cmd)\n', None),
}


def _project(tmp_path: Path, pin: str, body: str) -> Path:
    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    (tmp_path / "launch.py").write_text(HEAD + body)
    return tmp_path


@pytest.mark.parametrize("name", sorted(CASES))
def test_argv_list_option_removed(cli, tmp_path, name):
    pin, body, want = CASES[name]
    root = _project(tmp_path, pin, body)
    cli("audit", str(root), *GPU, "--fix")
    got = (root / "launch.py").read_text()
    assert got == HEAD + (body if want is None else want)
    ast.parse(got)
    cli("audit", str(root), *GPU, "--fix")  # once: a second run finds nothing more to take out
    assert (root / "launch.py").read_text() == got


def test_argv_list_told_where_not_written(cli, tmp_path):
    pin, body, _ = CASES["appended"]
    root = _project(tmp_path, pin, body)
    code, out, err = cli("audit", str(root), *GPU, "--diff")
    assert "cannot be written automatically" in out + err
