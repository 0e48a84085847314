"""The source folders laid out as the `vllm_kb` package they install as, for the tools that
read the package from files (import-linter, mypy): an editable install exposes `vllm_kb` only
through an import hook, which neither can follow."""
from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PARTS = ("engine", "cli", "mcp_server", "skill", "knowledge", "schema")


@contextmanager
def laid_out(prefix: str) -> Iterator[Path]:
    """A temporary folder holding `vllm_kb/` whose subfolders link to this checkout's."""
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        pkg = Path(tmp) / "vllm_kb"
        pkg.mkdir()
        (pkg / "__init__.py").write_text("")
        for part in PARTS:
            (pkg / part).symlink_to(ROOT / part, target_is_directory=True)
        yield Path(tmp)
