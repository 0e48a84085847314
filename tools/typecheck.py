#!/usr/bin/env python3
"""Run mypy (the [tool.mypy] settings in pyproject.toml) over the package, as each Python
version the package supports would see it.

    python tools/typecheck.py [--python-version 3.10] [mypy args…]

The source folders are laid out as the `vllm_kb` package first (tools/source_layout.py), in a
lasting folder so that mypy's incremental cache serves the next run; paths in the messages read
vllm_kb/engine/…, i.e. this checkout's engine/…. Exit status: mypy's."""
from __future__ import annotations

import subprocess
import sys

from source_layout import ROOT, cached_layout


def main() -> int:
    folder = cached_layout("typecheck")
    cmd = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
           "--cache-dir", str(folder / ".mypy_cache"), "-p", "vllm_kb", *sys.argv[1:]]
    return subprocess.call(cmd, cwd=folder)


if __name__ == "__main__":
    sys.exit(main())
