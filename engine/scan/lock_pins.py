"""The pins of lock files and Pipenv's files: what an install from them puts in place.

- uv.lock, poetry.lock and pdm.lock list each resolved package as a `[[package]]` table with its
  `name` and `version` (TOML): read as the exact release of that install (kind "lock", which
  ranks above every other pin file of the folder: pins.RANK).
- Pipfile.lock (JSON) holds the same under `default` (and `develop`): `"vllm": {"version": "==0.8.5"}`.
- A Pipfile is the project's own manifest, read as a pyproject's dependencies are: `vllm = "==0.8.5"`,
  `vllm = {version = ">=0.8"}`, `"*"` for any release (kind "pyproject")."""
from __future__ import annotations

import json

from vllm_kb.engine.kb.tomlread import toml
from vllm_kb.engine.scan.requirement import PACKAGES, Pin, line_of, make_pin, package_name

LOCKS = ("uv.lock", "poetry.lock", "pdm.lock")
PIPENV = ("pipfile", "pipfile.lock")


def lock(rel: str, text: str) -> list[Pin]:
    """The packages a uv, Poetry or PDM lock resolved."""
    data = toml().loads(text)
    out = []
    for pkg in data.get("package", []):
        name = package_name(str(pkg.get("name", ""))) if isinstance(pkg, dict) else ""
        if name in PACKAGES and pkg.get("version"):
            v = str(pkg["version"])
            out.append(Pin(rel, line_of(text, f'name = "{pkg["name"]}"') + 1, f"{name} {v}", f"=={v}", "lock", v, name))
    return out


def pipfile_lock(rel: str, text: str) -> list[Pin]:
    """The packages a Pipfile.lock resolved (its `default` section, then `develop`)."""
    data = json.loads(text)
    out = []
    seen: set[str] = set()
    for section in ("default", "develop"):
        for key, val in (data.get(section) or {}).items() if isinstance(data, dict) else ():
            name = package_name(key)
            spec = val.get("version") if isinstance(val, dict) else None
            if name not in PACKAGES or name in seen or not isinstance(spec, str) or not spec.startswith("=="):
                continue
            seen.add(name)
            p = make_pin(rel, line_of(text, f'"{key}"'), f"{key} {spec[2:]}", spec, "lock")
            p.package = name
            out.append(p)
    return out


def pipfile(rel: str, text: str) -> list[Pin]:
    """A Pipfile's `[packages]` and `[dev-packages]`, as a pyproject's dependencies."""
    data = toml().loads(text)
    out = []
    for section in ("packages", "dev-packages"):
        for key, val in (data.get(section) or {}).items():
            name = package_name(key)
            if name not in PACKAGES:
                continue
            raw = val if isinstance(val, str) else (val.get("version", "") if isinstance(val, dict) else "")
            spec = "" if raw.strip() == "*" else raw.strip()
            p = make_pin(rel, line_of(text, key), f"{key} = {raw!r}", spec, "pyproject")
            p.package = name
            out.append(p)
    return out
