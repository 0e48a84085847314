"""A small vLLM source tree written from {relative path: text} (the text dedented), for the tests of
the tools that read releases (tools/vllm_architectures.py, tools/vllm_bnb_support.py, tools/vllm_catalog.py)."""
from __future__ import annotations

import textwrap
from pathlib import Path


def write_release(root: Path, files: dict[str, str], *, lstrip: bool = False) -> Path:
    """lstrip drops the text's leading blank lines, for tests that assert line numbers from line 1."""
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        body = textwrap.dedent(text)
        p.write_text(body.lstrip() if lstrip else body, encoding="utf-8")
    return root
