"""`vllm-kb skill install`: put the skill where an agent looks for skills, or zip it for upload.

    claude   .claude/skills/vllm-optimization        (--user: ~/.claude/skills/…)
    codex    .agents/skills/vllm-optimization        (--user: ~/.agents/skills/…) — where Codex reads skills
    agents   the same .agents/skills folder, the vendor-neutral location other agents read too
    zip      vllm-optimization.zip with the folder at its top, for upload (Manus, Claude.ai)

The bundle is rendered from the installed knowledge base (the same renderer as `skill build`),
so an installed skill always matches the engine that will audit with it."""
from __future__ import annotations

import zipfile
from pathlib import Path

from vllm_kb.engine.kb.errors import UsageError

from vllm_kb.skill import build

TARGETS = ("claude", "codex", "agents", "zip")
SKILL_DIRS = {"claude": (".claude", "skills"), "codex": (".agents", "skills"), "agents": (".agents", "skills")}
# Fixed member dates keep the zip byte-identical across runs for the same knowledge.
_ZIP_DATE = (2020, 1, 1, 0, 0, 0)


def skills_dir(target: str, scope: str, cwd: Path, home: Path) -> Path:
    if target not in SKILL_DIRS:
        raise UsageError(f"--target {target!r}: expected one of {', '.join(TARGETS)}")
    base = home if scope == "user" else cwd
    return base.joinpath(*SKILL_DIRS[target])


def install(target: str, *, scope: str = "project", cwd: Path | None = None, home: Path | None = None,
            out: Path | None = None) -> Path:
    """Install (or zip) the skill; returns the skill folder or the zip written."""
    cwd = cwd or Path.cwd()
    files = build.render()
    if target == "zip":
        return write_zip(out or cwd / f"{build.NAME}.zip", files)
    dest = out or skills_dir(target, scope, cwd, home or Path.home())
    return build.write(dest, files, installed=True)


def write_zip(path: Path, files: dict[str, str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for rel, text in files.items():
            info = zipfile.ZipInfo(f"{build.NAME}/{rel}", date_time=_ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, text.encode("utf-8"))
    return path
