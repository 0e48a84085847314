#!/usr/bin/env python3
"""Run import-linter (the contracts in pyproject.toml) over the source folders.

An editable install exposes `vllm_kb` through an import hook that the import graph cannot
walk, so the folders are laid out as a `vllm_kb` package of links first (tools/source_layout.py);
tools/catalog_extract is found on the path as it is. Exit status: lint-imports'."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from source_layout import ROOT, laid_out


def main() -> int:
    with laid_out("vllm-kb-imports-") as tmp:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp), str(ROOT / "tools")]))
        exe = Path(sys.executable).with_name("lint-imports")
        # run from the checkout: import-linter reads pyproject.toml there
        cmd = [str(exe) if exe.exists() else "lint-imports", "--no-cache", *sys.argv[1:]]
        return subprocess.call(cmd, cwd=ROOT, env=env)


if __name__ == "__main__":
    sys.exit(main())
