"""A PEFT adapter folder given as the model itself (check L282 adapter-as-model).

`--model /app/model` bind-mounted from a folder of the project that holds adapter_config.json and
adapter_model.safetensors but no config.json: every vLLM release reads the model's config.json first
(0.1.0-0.6.0 AutoConfig.from_pretrained, 0.6.1-0.7.3 "No supported config format found", 0.8.0 on
"Invalid repository ID or local directory specified"), so the server stops before any weight loads.
The facts name the folder, the base model its adapter_config.json gives, and whether another file of
the project names the folder (an export step may write a merged model there before the launch runs)."""
from __future__ import annotations

import os
import posixpath
from pathlib import Path
from typing import Any

from vllm_kb.engine.kb.checkpoint import read_json_inside

_CODE = (".py", ".sh", ".ipynb", ".yaml", ".yml", ".toml", ".cfg", ".bash")
_SKIP = {".git", "node_modules", "__pycache__", ".venv", "venv", "site-packages"}
_MAX_FILES = 4000
_MAX_BYTES = 400_000


def _folders(root: Path, site, path: str) -> list[str]:
    """The project folders (relative to root) vLLM would read as `path`: a relative path beside the
    launch file or at the root, or a container path whose volume is a folder of the project."""
    here = posixpath.dirname(site.file)
    if not path.startswith("/"):
        return [posixpath.normpath(posixpath.join(b, path)) for b in dict.fromkeys((here, ""))]
    mounts = (site.container or {}).get("mounts") or {}
    for target in sorted(mounts, key=len, reverse=True):
        t = target.rstrip("/")
        if path != t and not path.startswith(t + "/"):
            continue
        return [posixpath.normpath(posixpath.join(here, src.rstrip("/") + path[len(t):])) for src in mounts[target]
                if isinstance(src, str) and (src in (".", "..") or src.startswith(("./", "../")))]
    return []


def adapter_facts(root: Path | None, site, path: Any) -> dict[str, Any]:
    """`launch.model_adapter` (the folder), `model_adapter_base` and `model_adapter_named_by` (another
    file of the project that names the folder) where the model is a project folder with an adapter and
    no config; nothing otherwise."""
    if root is None or not isinstance(path, str) or not path or "$" in path or "://" in path:
        return {}
    top = root.resolve()
    for rel in _folders(root, site, path):
        if rel.startswith("..") or not (root / rel).is_dir():
            continue
        folder = root / rel
        if any((folder / n).exists() for n in ("config.json", "params.json")):
            return {}
        peft = read_json_inside(top, folder / "adapter_config.json")
        if peft is None:
            return {}
        base = peft.get("base_model_name_or_path")
        # "?" where the adapter names no base: the text stays the same in every language
        out: dict[str, Any] = {"model_adapter": rel, "model_adapter_base": base.strip() if isinstance(base, str) and base.strip() else "?"}
        named = _named_elsewhere(root, posixpath.basename(rel.rstrip("/")), site.file, rel)
        if named:
            out["model_adapter_named_by"] = named
        return out
    return {}


def _named_elsewhere(root: Path, name: str, launch: str, folder: str) -> str | None:
    """The first code file of the project, other than the launch and the folder's own files, whose text
    names the folder: it may write the model there (a merge and export) before the launch runs."""
    if not name or name in (".", ".."):
        return None
    seen = 0
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIP)
        for fn in sorted(filenames):
            if not fn.endswith(_CODE):
                continue
            rel = posixpath.relpath(posixpath.join(dirpath, fn), str(root)).replace(os.sep, "/")
            if rel == launch or rel.startswith(folder.rstrip("/") + "/"):
                continue
            seen += 1
            if seen > _MAX_FILES:
                return None
            try:
                p = Path(dirpath) / fn
                if p.is_symlink() or p.stat().st_size > _MAX_BYTES:
                    continue
                if name in p.read_text(encoding="utf-8", errors="replace"):
                    return rel
            except OSError:
                continue
    return None
