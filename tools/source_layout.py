"""The source folders laid out as the `vllm_kb` package they install as, for the tools that
read the package from files (import-linter, mypy): an editable install exposes `vllm_kb` only
through an import hook, which neither can follow."""
from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PARTS = ("engine", "cli", "mcp_server", "skill", "knowledge", "schema")


def _lay_out(folder: Path) -> None:
    pkg = folder / "vllm_kb"
    pkg.mkdir(parents=True, exist_ok=True)
    init = pkg / "__init__.py"
    if not init.exists():
        init.write_text("")
    for part in PARTS:
        link = pkg / part
        if link.is_symlink() and Path(os.readlink(link)) == ROOT / part:
            continue
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(ROOT / part, target_is_directory=True)


@contextmanager
def laid_out(prefix: str) -> Iterator[Path]:
    """A temporary folder holding `vllm_kb/` whose subfolders link to this checkout's."""
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        _lay_out(Path(tmp))
        yield Path(tmp)


def cached_layout(tool: str) -> Path:
    """The same layout in a lasting folder of this checkout's own (under the user's cache), so a
    tool's cache keyed by file path (mypy's) holds from one run to the next."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    folder = base / "vllm-kb-dev" / tool / hashlib.sha1(str(ROOT).encode()).hexdigest()[:12]
    _lay_out(folder)
    return folder
