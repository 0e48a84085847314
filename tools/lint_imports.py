#!/usr/bin/env python3
"""Run import-linter (the contracts in pyproject.toml) over the source folders.

An editable install exposes `vllm_kb` through an import hook that the import graph cannot
walk, so the folders are laid out as a `vllm_kb` package of links in a temporary folder first;
tools/catalog_extract is found on the path as it is. Exit status: lint-imports'."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PARTS = ("engine", "cli", "mcp_server", "skill", "knowledge", "schema")


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="vllm-kb-imports-") as tmp:
        pkg = Path(tmp) / "vllm_kb"
        pkg.mkdir()
        (pkg / "__init__.py").write_text("")
        for part in PARTS:
            (pkg / part).symlink_to(ROOT / part, target_is_directory=True)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([tmp, str(ROOT / "tools")]))
        exe = Path(sys.executable).with_name("lint-imports")
        # run from the checkout: import-linter reads pyproject.toml there
        cmd = [str(exe) if exe.exists() else "lint-imports", "--no-cache", *sys.argv[1:]]
        return subprocess.call(cmd, cwd=ROOT, env=env)


if __name__ == "__main__":
    sys.exit(main())
