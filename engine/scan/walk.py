"""Which files an audit reads: everything under the root except VCS folders, virtualenvs,
dependency and build trees and what .gitignore excludes; symlinks out of the root are not
followed."""
from __future__ import annotations

import fnmatch
import os
from pathlib import Path

SKIP_DIRS = {".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", ".tox", ".nox",
             ".mypy_cache", ".pytest_cache", ".ruff_cache", "site-packages", ".eggs", ".idea", ".vscode",
             "build", "dist", ".cache", ".hypothesis"}


class GitIgnore:
    """The common subset of .gitignore: globs, `dir/`, leading `/` anchors, `!` re-includes."""

    def __init__(self, lines: list[str]):
        self.rules: list[tuple[bool, bool, bool, str]] = []  # (negate, dir_only, anchored, pattern)
        for raw in lines:
            line = raw.rstrip("\n").rstrip()
            if not line or line.startswith("#"):
                continue
            neg = line.startswith("!")
            if neg:
                line = line[1:]
            dir_only = line.endswith("/")
            line = line.rstrip("/")
            anchored = line.startswith("/") or "/" in line
            self.rules.append((neg, dir_only, anchored, line.lstrip("/")))

    def ignored(self, rel: str, is_dir: bool) -> bool:
        hit = False
        name = rel.rsplit("/", 1)[-1]
        for neg, dir_only, anchored, pat in self.rules:
            if dir_only and not is_dir:
                continue
            target = rel if anchored else name
            if fnmatch.fnmatchcase(target, pat) or (anchored and fnmatch.fnmatchcase(rel, pat + "/*")):
                hit = not neg
        return hit


def walk(root: Path) -> list[str]:
    root = root.resolve()
    ignores: list[tuple[str, GitIgnore]] = []
    out: list[str] = []
    seen_dirs: set[tuple[int, int]] = set()

    def ignored(rel: str, is_dir: bool) -> bool:
        for base, gi in ignores:
            if base and not rel.startswith(base + "/"):
                continue
            sub = rel[len(base) + 1:] if base else rel
            if gi.ignored(sub, is_dir):
                return True
        return False

    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        d = Path(dirpath)
        rel_dir = "" if d == root else d.relative_to(root).as_posix()
        try:
            st = d.stat()
            if (st.st_dev, st.st_ino) in seen_dirs:
                dirnames[:] = []
                continue
            seen_dirs.add((st.st_dev, st.st_ino))
        except OSError:
            dirnames[:] = []
            continue
        if ".gitignore" in filenames:
            try:
                ignores.append((rel_dir, GitIgnore((d / ".gitignore").read_text(errors="replace").splitlines())))
            except OSError:
                pass
        keep = []
        for name in sorted(dirnames):
            rel = f"{rel_dir}/{name}" if rel_dir else name
            if name in SKIP_DIRS or name.endswith(".egg-info") or (d / name / "pyvenv.cfg").exists():
                continue
            if ignored(rel, True):
                continue
            keep.append(name)
        dirnames[:] = keep
        for name in sorted(filenames):
            rel = f"{rel_dir}/{name}" if rel_dir else name
            p = d / name
            if p.is_symlink():
                try:
                    target = p.resolve()
                except OSError:
                    continue
                if root not in target.parents:
                    continue
            if ignored(rel, False):
                continue
            out.append(rel)
    return out
