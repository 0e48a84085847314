"""Derived data kept between runs so that a cold start does not redo what never changes: the CEL
parser tables (engine/kb/cel.py) and the knowledge files as parsed (engine/kb/knowledge.py). Each
entry is named by a hash of what it was derived from, so an edited knowledge file or another
library version simply misses; the cache holds nothing about audited projects.

Where: $VLLM_KB_CACHE_DIR, else $XDG_CACHE_HOME/vllm-kb, else ~/.cache/vllm-kb (created 0700);
VLLM_KB_NO_CACHE=1 turns it off. Any failure to read or write it is ignored."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


def cache_dir() -> Path | None:
    if os.environ.get("VLLM_KB_NO_CACHE"):
        return None
    d = os.environ.get("VLLM_KB_CACHE_DIR")
    if not d:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        d = os.path.join(base, "vllm-kb")
    return Path(d)


def folder(name: str) -> Path | None:
    """A subfolder of the cache, created on demand; None when there is no usable cache."""
    root = cache_dir()
    if root is None:
        return None
    p = root / name
    try:
        p.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return None
    return p


def read_json(path: Path) -> Any | None:
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def write_json(path: Path, data: Any) -> None:
    """Atomically (a temporary name, then a rename): a reader never sees half a file."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False, separators=(",", ":"))
        os.replace(tmp, path)
    except (OSError, TypeError, ValueError):
        try:
            os.unlink(tmp)
        except OSError:
            pass
