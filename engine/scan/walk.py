"""Which files an audit reads: every regular file under the root except VCS folders,
virtualenvs (any folder holding pyvenv.cfg), dependency and build trees and what .gitignore
(nested files, negations, `**`, anchors, `dir/`) and .git/info/exclude exclude — save a requirements
file in a folder the walk enters (is_pin_file). Symlinked
folders are never entered (so no loop and no way out of the root); a symlinked file is kept
only when it resolves inside the root. Folders that cannot be listed and links that point out
of the root are reported, not fatal."""
from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import Callable

# a temporary file of an interrupted `vllm-kb audit --fix` (engine/fix/atomic.py), never project text
_FIX_TEMP = re.compile(r"^\.vllm-kb-fix-\d+-.*\.tmp$")
SKIP_DIRS = {".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", ".tox", ".nox",
             ".mypy_cache", ".pytest_cache", ".ruff_cache", "site-packages", ".eggs", ".idea", ".vscode",
             "build", "dist", ".cache", ".hypothesis"}


def _translate(pat: str) -> str:
    """A gitignore glob as a regex body: `*` and `?` stop at `/`, `**` spans folders."""
    out, i, n = [], 0, len(pat)
    while i < n:
        c = pat[i]
        if c == "*":
            if pat.startswith("**", i):
                before = i == 0 or pat[i - 1] == "/"
                after = i + 2 == n or pat[i + 2] == "/"
                if before and after:
                    if i + 2 == n:  # trailing /** (or a lone **): everything below
                        out.append(".*")
                        i += 2
                    else:  # **/ : zero or more folders
                        out.append("(?:.*/)?")
                        i += 3
                    continue
                while i < n and pat[i] == "*":
                    i += 1
                out.append("[^/]*")
                continue
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            j = i + 1
            if j < n and pat[j] in "!^":
                j += 1
            if j < n and pat[j] == "]":
                j += 1
            while j < n and pat[j] != "]":
                j += 1
            if j >= n:
                out.append(re.escape(c))
            else:
                body = pat[i + 1:j]
                if body[:1] in ("!", "^"):
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
                i = j
        elif c == "\\" and i + 1 < n:
            i += 1
            out.append(re.escape(pat[i]))
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


class GitIgnore:
    """One .gitignore (or info/exclude) file; patterns are relative to its folder."""

    def __init__(self, lines: list[str]):
        # (negate, dir_only, anchored, regex)
        self.rules: list[tuple[bool, bool, bool, re.Pattern]] = []
        for raw in lines:
            line = raw.rstrip("\n").rstrip("\r")
            # trailing blanks are dropped unless escaped
            stripped = line.rstrip(" \t")
            if stripped.endswith("\\") and len(stripped) < len(line):
                stripped += line[len(stripped)]
            line = stripped
            if not line or line.startswith("#"):
                continue
            neg = line.startswith("!")
            if neg:
                line = line[1:]
            elif line.startswith(("\\!", "\\#")):
                line = line[1:]
            dir_only = line.endswith("/") and not line.endswith("\\/")
            line = line.rstrip("/")
            if not line:
                continue
            anchored = "/" in line
            line = line.lstrip("/")
            try:
                rx = re.compile(_translate(line) + r"\Z", re.S)
            except re.error:
                continue
            self.rules.append((neg, dir_only, anchored, rx))
        # one combined test per kind, so that a path no rule touches costs two regex calls
        self._any = {}
        for anchored in (False, True):
            parts = [r.pattern for _, _, a, r in self.rules if a == anchored]
            self._any[anchored] = re.compile("|".join(f"(?:{p})" for p in parts), re.S) if parts else None

    def match(self, rel: str, is_dir: bool) -> bool | None:
        """True: ignored, False: re-included by a `!` rule, None: no rule says."""
        name = rel.rsplit("/", 1)[-1]
        a, b = self._any[False], self._any[True]
        if not ((a and a.match(name)) or (b and b.match(rel))):
            return None
        hit = None
        for neg, dir_only, anchored, rx in self.rules:
            if dir_only and not is_dir:
                continue
            if rx.match(rel if anchored else name):
                hit = not neg
        return hit

    def ignored(self, rel: str, is_dir: bool) -> bool:
        return bool(self.match(rel, is_dir))


def _read_ignore(path: str) -> GitIgnore | None:
    try:
        with open(path, "rb") as f:
            data = f.read(1024 * 1024)
    except OSError:
        return None
    return GitIgnore(data.decode("utf-8", "replace").splitlines())


def _special(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "FIFO"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode):
        return "character device"
    if stat.S_ISBLK(mode):
        return "block device"
    return "special file"


_VLLM_PROJECT = (("pyproject.toml", re.compile(r'^name\s*=\s*["\']vllm["\']\s*$', re.M)),
                 ("setup.py", re.compile(r'\bname\s*=\s*["\']vllm["\']\s*,')))


# a requirements or constraints file: `requirements.txt`, `requirements-dev.in`, `requirements/vllm.txt`
_PIN_NAME = re.compile(r"^(?:requirements?|constraints?)(?:[-_.][\w.-]*)?\.(?:txt|in)$", re.I)


def is_pin_file(rel: str) -> bool:
    """A requirements file is read even where an ignore pattern catches it: a pattern meant for
    outputs (`*.txt`) does not untrack a file committed before it or with `git add -f`, and pip
    reads the file whatever git says. open-compass/opencompass ignores `*.txt` while it commits
    requirements.txt and requirements/*.txt, which setup.py's extras read (`opencompass[vllm]`)."""
    parts = rel.split("/")
    name = parts[-1]
    return bool(_PIN_NAME.match(name)) or (len(parts) > 1 and parts[-2].lower() == "requirements"
                                           and name.lower().endswith((".txt", ".in")))


def is_vllm_source(folder: str, names: set[str]) -> bool:
    """A copy of vLLM's own source tree (its package folder beside a pyproject.toml or setup.py that
    names the project `vllm`). Below the audited root it is vendored code: vLLM's tests, examples,
    CI scripts and engine modules launch vLLM as vLLM's developers do, at the copy's own commit,
    and its setup files are not the project's pins. One inside a research repository gave 51
    false P0s judged against the newest release (eval81, dehudewf/Inference-and-Deployment-huiwei1)."""
    if not os.path.isfile(os.path.join(folder, "vllm", "__init__.py")):
        return False
    for name, pattern in _VLLM_PROJECT:
        if name in names:
            try:
                with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as f:
                    if pattern.search(f.read(200_000)):
                        return True
            except OSError:
                continue
    return False


class WalkResult(list):
    """The files (project-relative, POSIX), plus what was left out and why:
    `skipped` holds (path, code, detail) for folders that cannot be listed and links out of the root."""

    def __init__(self, files: Iterable[str] = (), skipped: list[tuple[str, str, str]] | None = None) -> None:
        super().__init__(files)
        self.skipped: list[tuple[str, str, str]] = skipped or []


def _vscode_launch(folder: str, rel: str, ignored, out) -> None:
    """The one file of an editor folder an audit reads: VS Code's debug configurations, which may
    start vLLM (engine/scan/vscode_launch.py). A link is not followed."""
    path = os.path.join(folder, "launch.json")
    try:
        st = os.lstat(path)
    except OSError:
        return
    if stat.S_ISREG(st.st_mode) and not ignored(rel, False):
        out.append(rel)


def walk(root: Path, progress: Callable[[str, int], None] | None = None) -> WalkResult:
    """`progress("walk", 0)` is told of each file found (how many there are is not known yet)."""
    root_s = os.path.realpath(root)
    out = WalkResult()
    ignores: list[tuple[str, GitIgnore]] = []  # (base folder, rules), root first
    exclude = _read_ignore(os.path.join(root_s, ".git", "info", "exclude"))
    if exclude is not None and exclude.rules:
        ignores.append(("", exclude))

    def ignored(rel: str, is_dir: bool) -> bool:
        hit = None
        for base, gi in ignores:  # deeper files come later and win, as in git
            if base:
                if not rel.startswith(base + "/"):
                    continue
                sub = rel[len(base) + 1:]
            else:
                sub = rel
            m = gi.match(sub, is_dir)
            if m is not None:
                hit = m
        return bool(hit)

    # Depth first, folders in name order, a folder's files before its subfolders (os.walk's order).
    stack: list[str] = [""]
    while stack:
        rel_dir = stack.pop()
        while ignores and ignores[-1][0] and not (rel_dir == ignores[-1][0] or rel_dir.startswith(ignores[-1][0] + "/")):
            ignores.pop()  # left the folder that .gitignore belongs to
        full_dir = os.path.join(root_s, rel_dir) if rel_dir else root_s
        try:
            with os.scandir(full_dir) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as err:
            out.skipped.append((rel_dir or ".", "unreadable", str(err.strerror or err)))
            continue
        names = {e.name for e in entries}
        if rel_dir and "pyvenv.cfg" in names:
            continue  # a virtualenv under another name
        if rel_dir and "vllm" in names and is_vllm_source(full_dir, names):
            out.skipped.append((rel_dir, "vllm-source", ""))
            continue
        if ".gitignore" in names:
            gi = _read_ignore(os.path.join(full_dir, ".gitignore"))
            if gi is not None and gi.rules:
                ignores.append((rel_dir, gi))
        subdirs = []
        for e in entries:
            name = e.name
            rel = f"{rel_dir}/{name}" if rel_dir else name
            try:
                if e.is_symlink():
                    if ignored(rel, False):
                        continue
                    target = os.path.realpath(e.path)
                    if not (target == root_s or target.startswith(root_s.rstrip(os.sep) + os.sep)):
                        out.skipped.append((rel, "outside-root", ""))
                        continue
                    try:
                        st = os.stat(e.path)
                    except OSError:  # dangling, or a loop of links
                        continue
                    if stat.S_ISREG(st.st_mode):
                        out.append(rel)  # a folder link is not entered: its target is walked as itself
                    elif not stat.S_ISDIR(st.st_mode):
                        out.skipped.append((rel, "not-regular", _special(st.st_mode)))
                    continue
                if e.is_dir(follow_symlinks=False):
                    if name in SKIP_DIRS or name.endswith(".egg-info") or ignored(rel, True):
                        if name == ".vscode" and not ignored(rel, True):
                            _vscode_launch(e.path, rel + "/launch.json", ignored, out)
                        continue
                    subdirs.append(rel)
                elif e.is_file(follow_symlinks=False):
                    if (not ignored(rel, False) or is_pin_file(rel)) and not _FIX_TEMP.match(name):
                        out.append(rel)
                        if progress is not None:
                            progress("walk", 0)
                elif not ignored(rel, False):
                    # FIFOs, sockets and devices are not files to read (a FIFO would block the
                    # read forever); they are said to be skipped, with what they are
                    out.skipped.append((rel, "not-regular", _special(e.stat(follow_symlinks=False).st_mode)))
            except OSError as err:
                out.skipped.append((rel, "unreadable", str(err.strerror or err)))
        for sub in reversed(subdirs):
            stack.append(sub)
    return out
