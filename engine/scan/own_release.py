"""A project that is a checkout (or a fork) of EasyR1, NeMo-RL or SkyRL: the release its own version file
names. EasyR1 keeps verl's package name (`setup(name="verl")`, `verl/__init__.py` __version__
"0.3.2"), so its setup.py says nothing a pin reader can tell from verl; its layout does —
`verl/trainer/main.py` (verl has `main_ppo.py`) beside `verl/workers/rollout/config.py`.
NeMo-RL's pyproject.toml reads its version from `nemo_rl/package_info.py` (MAJOR, MINOR, PATCH,
PRE_RELEASE; `nemo_reinforcer/` before 0.2.1), and its uv.lock lists itself without one. SkyRL's
pyproject.toml reads its version from `skyrl/__init__.py` (`version = {attr = "skyrl.__version__"}`)."""
from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import Callable

_EASYR1_MARKS = ("verl/trainer/main.py", "verl/workers/rollout/config.py")
_VERSION = re.compile(r'^__version__\s*=\s*["\']([^"\']+)["\']', re.M)
_PART = re.compile(r'^(MAJOR|MINOR|PATCH|PRE_RELEASE)\s*=\s*["\']?([0-9A-Za-z]*)["\']?\s*$', re.M)


def pins(files: list[str], read: Callable[[str], str | None], pin_cls) -> list:
    """One own-release pin per checkout folder (the folder that holds the package)."""
    have = set(files)
    out: list = []
    for rel in files:
        if not rel.endswith(("setup.py", "pyproject.toml")):  # before a path is built for each file
            continue
        name = PurePosixPath(rel).name
        if name not in ("setup.py", "pyproject.toml"):
            continue
        folder = PurePosixPath(rel).parent.as_posix()
        base = "" if folder in ("", ".") else folder + "/"
        got = _easyr1(base, have, read, pin_cls, rel) or _nemo_rl(base, have, read, pin_cls, rel) or _skyrl(base, have, read, pin_cls, rel)
        if got is not None and all(p.folder != got.folder or p.package != got.package for p in out):
            out.append(got)
    return out


def _easyr1(base, have, read, pin_cls, rel):
    if not all(base + m in have for m in _EASYR1_MARKS) or base + "verl/__init__.py" not in have:
        return None
    text = read(base + "verl/__init__.py") or ""
    m = _VERSION.search(text)
    if not m:
        return None
    v = m.group(1)
    # the pin stands at the checkout's own metadata file, so that it holds for the whole checkout
    return pin_cls(rel, 1, f"easyr1 {v} (this project, {base}verl/__init__.py)", f"=={v}", "setup", v, "easyr1", own=True)


def _nemo_rl(base, have, read, pin_cls, rel):
    for pkg in ("nemo_rl", "nemo_reinforcer"):
        path = f"{base}{pkg}/package_info.py"
        if path not in have:
            continue
        text = read(path) or ""
        parts = dict(_PART.findall(text))
        if not all(parts.get(k, "").isdigit() for k in ("MAJOR", "MINOR", "PATCH")):
            return None
        v = f"{parts['MAJOR']}.{parts['MINOR']}.{parts['PATCH']}{parts.get('PRE_RELEASE', '')}"
        return pin_cls(rel, 1, f"nemo-rl {v} (this project, {path})", f"=={v}", "setup", v, "nemo-rl", own=True)
    return None


def _skyrl(base, have, read, pin_cls, rel):
    path = base + "skyrl/__init__.py"
    if not rel.endswith("pyproject.toml") or path not in have or base + "skyrl/train/config/config.py" not in have:
        return None
    m = _VERSION.search(read(path) or "")
    if not m:
        return None
    v = m.group(1)
    return pin_cls(rel, 1, f"skyrl {v} (this project, {path})", f"=={v}", "setup", v, "skyrl", own=True)
