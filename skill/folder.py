"""Writing the skill folder without harming what is not ours. Every write records the files it
wrote, with their SHA-256, in `.vllm-kb-manifest.json` inside the folder; the next write
replaces and removes only those files. A file the user added stays; in an installed copy, a
file of ours the user changed stops the write (nothing is touched) until they move their change
(the checkout's generated bundle is rewritten: git keeps its history); a folder that holds files
but no manifest (nor a SKILL.md that `vllm-kb skill build` wrote before manifests existed) is not
ours, and is refused."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from vllm_kb.engine.kb.errors import UsageError

MANIFEST = ".vllm-kb-manifest.json"


def _digest(text: str | bytes) -> str:
    return hashlib.sha256(text.encode("utf-8") if isinstance(text, str) else text).hexdigest()


def previous(target: Path, marker: str) -> dict[str, str]:
    """What an earlier write put in `target` (relative path → digest); {} for a new or empty
    folder and for one written before manifests (its SKILL.md carries `marker`)."""
    if not target.exists():
        return {}
    if not target.is_dir():
        raise UsageError(f"{target} exists and is not a folder; not replacing it")
    manifest = target / MANIFEST
    if manifest.is_file():
        try:
            data = json.loads(manifest.read_text(encoding="utf-8"))
            files = data["files"]
            if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
                raise ValueError("files is not a map of digests")
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise UsageError(f"{manifest} is not a manifest vllm-kb wrote ({e}); not replacing {target}") from None
        for rel in files:
            if Path(rel).is_absolute() or ".." in Path(rel).parts:
                raise UsageError(f"{manifest} names {rel!r}, outside the folder; not replacing {target}")
        return files
    skill_md = target / "SKILL.md"
    if skill_md.is_file() and marker in skill_md.read_text(encoding="utf-8", errors="replace"):
        return {}  # written before manifests: overwrite our files, delete nothing
    if any(target.iterdir()):
        raise UsageError(f"{target} exists and was not written by `vllm-kb skill build`; not replacing it")
    return {}


def write(target: Path, files: dict[str, str], marker: str, keep_edits: bool = True) -> Path:
    """Write `files` (relative path → text) into `target`, replacing the earlier write.
    `keep_edits`: refuse, before writing anything, when a file of the earlier write was changed."""
    before = previous(target, marker)
    changed = sorted(rel for rel, digest in before.items()
                     if (target / rel).is_file() and _digest((target / rel).read_bytes()) != digest)
    if changed and keep_edits:
        shown = ", ".join(changed[:5]) + (" …" if len(changed) > 5 else "")
        raise UsageError(f"{target}: {shown} changed since vllm-kb wrote them; move your changes out of the folder "
                         "(or the files away), then run it again. Nothing was written.")
    for rel in sorted(set(before) - set(files)):
        path = target / rel
        if path.is_file():
            path.unlink()
        for parent in path.parents:  # folders the earlier write made and left empty
            if parent == target or not parent.is_dir() or any(parent.iterdir()):
                break
            parent.rmdir()
    for rel, text in files.items():
        path = target / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    manifest = {"tool": "vllm-kb", "files": {rel: _digest(files[rel]) for rel in sorted(files)}}
    (target / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return target
