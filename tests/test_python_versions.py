"""The package holds for every Python that requires-python admits (3.10–3.13): vermin finds no
construct newer than 3.10, and mypy finds no error as 3.10 and as 3.13 see the code (the
[tool.mypy] settings, tools/typecheck.py). .ci/package-check installs the built wheel under 3.10,
3.12 and 3.13 and runs the tests of the faces against it under 3.10."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("engine", "cli", "mcp_server", "skill", "tools")


def _has(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


def test_requires_python_and_the_classifiers_agree():
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["requires-python"] == ">=3.10"
    versions = {c.rsplit(" :: ", 1)[1] for c in project["classifiers"] if c.startswith("Programming Language :: Python :: 3.")}
    assert versions == {"3.10", "3.11", "3.12", "3.13"}


@pytest.mark.skipif(not _has("vermin"), reason="vermin is in the test extra: pip install -e '.[test]'")
def test_no_construct_newer_than_python_3_10():
    exe = shutil.which("vermin", path=str(Path(sys.executable).parent)) or "vermin"
    run = subprocess.run([exe, "--target=3.10-", "--violations", "--no-tips", "--eval-annotations", "-q", *SOURCES],
                         cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.skipif(not _has("mypy"), reason="mypy is in the test extra: pip install -e '.[test]'")
@pytest.mark.parametrize("version", ["3.10", "3.13"])
def test_mypy_finds_no_error(version):
    run = subprocess.run([sys.executable, str(ROOT / "tools/typecheck.py"), "--python-version", version],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
