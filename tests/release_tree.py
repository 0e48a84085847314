"""A small vLLM source tree written from {relative path: text} (the text dedented), for the tests of
the tools that read releases (tools/vllm_architectures.py, tools/vllm_bnb_support.py)."""
from __future__ import annotations

import textwrap
from pathlib import Path


def write_release(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text), encoding="utf-8")
    return root
