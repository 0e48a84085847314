"""The vLLM version a project pins: requirements*.txt, pyproject.toml (PEP 621, Poetry, uv
dependency groups), setup.py / setup.cfg (engine/scan/setup_pins.py), conda environment files,
uv/poetry/pdm lock files and Pipenv's files (engine/scan/lock_pins.py), and the `pip install`
lines of a Dockerfile's RUN instructions, a notebook or a shell script (engine/scan/install_pins.py);
and the one version a folder's pins choose (engine/scan/pin_choice.py; docs/pins.md: the precedence as a whole)."""
from __future__ import annotations

import configparser
import json
import os
import re
from functools import lru_cache
from pathlib import Path, PurePosixPath

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.kb.versions import InvalidSpecifier, SpecifierSet
from vllm_kb.engine.scan import lock_pins, pip_lines, req_file, truss_config
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.install_pins import dockerfile_pins, script_pins
from vllm_kb.engine.scan.pin_choice import VersionChoice, choose, installed_range, is_bare, is_readable, site_install
from vllm_kb.engine.scan.requirement import HOST_PACKAGES, PACKAGES, RANK, REQUIREMENTS_SUFFIXES, Pin, from_requirement, line_of, make_pin, package_name
from vllm_kb.engine.scan.setup_pins import setup_cfg, setup_py
from vllm_kb.engine.kb.tomlread import error_line, toml

# read through this module by the rest of the scan and the checks
__all__ = ["HOST_PACKAGES", "PACKAGES", "RANK", "Pin", "VersionChoice", "choose", "dockerfile_pins", "from_requirement",
           "installed_range", "is_bare", "is_dockerfile", "is_pin_file", "is_readable", "package_name", "pins_above", "poetry_spec", "project_root", "repository_root", "scan",
           "script_pins", "site_install"]


@lru_cache(maxsize=8192)  # asked of every name of every folder between a project and its repository's root
def is_pin_file(rel: str) -> bool:
    head, _, name = rel.rpartition("/")
    name = name.lower()
    return (
        # `requirement.txt`, `requirement-dev.txt`: the singular spelling pip reads as well with -r
        (name.startswith("requirement") and name.endswith(REQUIREMENTS_SUFFIXES))
        or (name.startswith("constraints") and name.endswith(".txt"))
        or head.rpartition("/")[2].lower() == "requirements" and name.endswith((".txt", ".in"))
        or _variant_pyproject(name)
        or name in ("pyproject.toml", "setup.py", "setup.cfg", "environment.yml", "environment.yaml", "conda.yml", "conda.yaml",
                    *lock_pins.LOCKS, *lock_pins.PIPENV)
    )


def _variant_pyproject(name: str) -> bool:
    """`pyproject.vllm.toml`: a second project file for one build variant (AReaL keeps its vLLM
    variant's pins there, apart from the sglang ones, and its Dockerfile syncs it for VARIANT=vllm)."""
    return name.startswith("pyproject.") and name.endswith(".toml") and name.count(".") == 2


# `dockerfile_build_guidance.rst`, `Dockerfile.md`: a page or script about a Dockerfile, not one
_NOT_DOCKERFILE = (".md", ".rst", ".txt", ".html", ".py", ".sh", ".json", ".yaml", ".yml", ".toml", ".ipynb", ".lock")


def is_dockerfile(rel: str) -> bool:
    """A Dockerfile, for its pins and as a launch site (engine/scan/deploy/dockerfile.py asks the same):
    Dockerfile, Containerfile, Dockerfile.rocm, Dockerfile-Nvidia, Dockerfile_cuda (the variant names
    `docker build -f` is given), x.Dockerfile; any case."""
    name = rel.rpartition("/")[2].lower()
    if name in ("dockerfile", "containerfile"):
        return True
    return (name.startswith(("dockerfile.", "dockerfile-", "dockerfile_", "containerfile.")) or name.endswith(".dockerfile")) \
        and not name.endswith(_NOT_DOCKERFILE)


def scan(ctx: ScanContext, rel: str, text: str) -> list[Pin]:
    low = text.lower()
    # xinference: a serving platform's own release (a pin, or `FROM xprobe/xinference:v1.10.1`) decides what it passes vLLM
    if not any(p in low for p in ("vllm", "trl", "verl", "openrlhf", "llamafactory", "swift", "easyr1", "nemo", "sglang", "transformers", "torch",
                                  "xformers", "flash", "xinference", "huggingfaceserver", "tritonserver", "llm-d", "gpustack")):
        return []
    name = PurePosixPath(rel).name.lower()
    if is_dockerfile(rel) or name.endswith(".ipynb"):  # a notebook as its pip lines (notebook_json.pip_lines)
        return dockerfile_pins(rel, text, ctx.build_args.get(rel))
    try:
        if name == "pyproject.toml" or _variant_pyproject(name):
            return _pyproject(rel, text)
        if name in lock_pins.LOCKS:
            return lock_pins.lock(rel, text)
        if name == "pipfile":
            return lock_pins.pipfile(rel, text)
        if name == "pipfile.lock":
            return lock_pins.pipfile_lock(rel, text)
        if name == "setup.py":
            return setup_py(rel, text, ctx)
        if name == "setup.cfg":
            return setup_cfg(rel, text)
        if name.endswith((".yml", ".yaml")):
            return _conda(rel, text)
        return req_file.pins(rel, text)
    except toml().TOMLDecodeError as e:
        ctx.skip(rel, "toml-error", error_line(e), str(e))
    except yamlio.YamlError as e:
        ctx.skip(rel, "yaml-error", e.line, str(e))
    except SyntaxError as e:
        ctx.skip(rel, "python-syntax", e.lineno, e.msg)
    except (configparser.Error, ValueError, RecursionError) as e:  # a JSONDecodeError (Pipfile.lock) too
        ctx.skip(rel, "parse-error", getattr(e, "lineno", None), f"{type(e).__name__}: {e.msg}" if isinstance(e, json.JSONDecodeError) else type(e).__name__)
    return []


@lru_cache(maxsize=16)
def _toml(text: str) -> dict:
    """The parsed text, read only: the repository's own pyproject.toml is read again by every
    audit of a folder below it (pins_above), the test suite's hundreds of real cases each time."""
    return toml().loads(text)


def _pyproject(rel: str, text: str) -> list[Pin]:
    data = _toml(text)
    proj = data.get("project", {})
    reqs: list[tuple[str, str]] = [("", r) for r in proj.get("dependencies", []) if isinstance(r, str)]
    for name, group in (proj.get("optional-dependencies") or {}).items():  # an extra: which one is installed (extra_groups)
        reqs += [(str(name), r) for r in group if isinstance(r, str)]
    for group in (data.get("dependency-groups") or {}).values():
        reqs += [("", r) for r in group if isinstance(r, str)]
    out = []
    for name, r in reqs:
        if (p := from_requirement(rel, line_of(text, r), r, "pyproject")) is not None:
            p.group = name
            out.append(p)
    poetry = (data.get("tool", {}).get("poetry", {}) or {})
    tables = [poetry.get("dependencies", {})] + [g.get("dependencies", {}) for g in (poetry.get("group") or {}).values() if isinstance(g, dict)]
    for deps in tables:
        for key, val in (deps or {}).items():
            if package_name(key) not in PACKAGES:
                continue
            raw = (val if isinstance(val, str) else (val.get("version", "") if isinstance(val, dict) else "")).strip()
            spec = poetry_spec(raw)  # `^0.4.1`, `~0.4`: Poetry's own operators, as PEP 440
            p = make_pin(rel, line_of(text, key), f"{key} = {raw!r}", spec, "pyproject")
            p.package = package_name(key)
            out.append(p)
    return out


_POETRY = re.compile(r"^\s*(?P<op>\^|~(?!=))?\s*v?(?P<v>\d+(?:\.\d+)*)(?P<rest>(?:\.\*)?)\s*$")


def poetry_spec(spec: str) -> str:
    """A Poetry version constraint as a PEP 440 specifier: `^0.4.1` is >=0.4.1,<0.5.0 (the first
    non-zero part may not change), `~0.4.1` is >=0.4.1,<0.5.0 (the minor may not), a bare `0.4.1`
    is ==0.4.1, `*` is no bound (python-poetry.org/docs/dependency-specification). Comma-joined
    and PEP 440 constraints pass through: each part is translated alike."""
    parts = [p.strip() for p in spec.split(",") if p.strip()]
    out = []
    for part in parts:
        m = _POETRY.match(part)
        if part == "*":
            continue
        if m is None:
            out.append(part)
            continue
        nums = [int(x) for x in m["v"].split(".")]
        if m["rest"]:
            out.append(f"=={m['v']}.*")
        elif m["op"] is None:
            out.append(f"=={m['v']}")
        else:
            if m["op"] == "^":
                i = next((k for k, x in enumerate(nums) if x), len(nums) - 1)
            else:
                i = min(1, len(nums) - 1) if len(nums) > 1 else 0
            upper = nums[:i] + [nums[i] + 1]
            out.append(f">={m['v']},<{'.'.join(map(str, upper))}")
    return ",".join(out)


def _conda(rel: str, text: str) -> list[Pin]:
    doc = yamlio.load(text)
    data = doc.data
    if not isinstance(data, dict) or not isinstance(data.get("dependencies"), list):
        return []
    out = []
    for i, dep in enumerate(data["dependencies"]):
        if isinstance(dep, str):
            spec = dep.strip()
            m = re.match(r"^(?:[\w-]+::)?([A-Za-z][\w.-]*)\s*(=?=?)\s*([\w.*]+)?$", spec, re.I)
            if m and package_name(m.group(1)) in PACKAGES:
                op, ver = m.group(2), m.group(3)
                if op == "=" and ver and not ver.endswith("*"):
                    ver_spec = f"=={ver}.*" if ver.count(".") < 2 else f"=={ver}"  # conda `=` is a prefix match
                else:
                    ver_spec = f"=={ver}" if ver else ""
                p = make_pin(rel, doc.line_of(("dependencies", i)), spec, ver_spec, "conda")
                p.package = package_name(m.group(1))
                out.append(p)
            else:
                req = from_requirement(rel, doc.line_of(("dependencies", i)), spec, "conda")
                if req:
                    out.append(req)
        elif isinstance(dep, dict) and isinstance(dep.get("pip"), list):
            for j, r in enumerate(dep["pip"]):
                if isinstance(r, str):
                    req = from_requirement(rel, doc.line_of(("dependencies", i, "pip", j)), r, "conda")
                    if req:
                        out.append(req)
    return out


conda_pins = _conda  # an environment file of any name (engine/scan/conda_envs.py)
requirements_pins = req_file.pins  # a file a requirements file includes with -r (engine/scan/req_chains.py)


def drop_stale_locks(pins: list[Pin]) -> list[Pin]:
    """A lock is what an install gives only while it agrees with the project: a lock whose version
    lies outside the same folder's pyproject requirement was left behind by an older one (LiveCodeBench:
    poetry.lock's vllm 0.4.0.post1 beside `vllm>=0.5.0.post1`); of a uv.lock and a poetry.lock that both
    agree, uv's stands unless the pyproject declares Poetry's own dependency tables."""
    def outside(lock: Pin) -> bool:
        for p in pins:
            if p.kind == "pyproject" and p.package == lock.package and p.folder == lock.folder and p.spec and lock.exact:
                try:
                    if not SpecifierSet(p.spec).contains(lock.exact):
                        return True
                except (InvalidSpecifier, ValueError):
                    continue  # a specifier or a locked version the audit cannot read: the lock stands
        return False

    kept = [p for p in pins if not (p.kind == "lock" and outside(p))]
    poetry_folders = {p.folder for p in kept if p.kind == "pyproject" and " = " in p.text}  # `vllm = '^0.4.1'`
    uv = {(p.folder, p.package) for p in kept if p.kind == "lock" and p.file.endswith("uv.lock")}
    return [p for p in kept if not (p.kind == "lock" and p.file.endswith("poetry.lock") and (p.folder, p.package) in uv
                                    and p.folder not in poetry_folders)]


def repository_root(folder: Path, limit: int = 24) -> Path | None:
    """The nearest folder at or above `folder` that holds `.git` (None when there is none)."""
    d = folder
    for _ in range(limit):
        if (d / ".git").exists():
            return d
        if d.parent == d:
            return None
        d = d.parent
    return None


_MAKEFILES = ("Makefile", "makefile", "GNUmakefile")


def project_root(folder: Path, limit: int = 24) -> Path | None:
    """Where a file audited on its own starts its project: its repository's root (repository_root), or in a
    tree without one (copied or unpacked without its .git) the nearest folder at or above it that holds the
    project's own pins: a pin file (requirements*.txt, pyproject.toml, setup.py …) or a Makefile whose recipe
    pip-installs vLLM (eval97 Zityuen/open-r1-coderm: `uv pip install vllm==0.8.5.post1` in the root Makefile,
    slurm/experimental/serve_r1_vllm.slurm two folders down). None when no folder up to `limit` holds either."""
    repo = repository_root(folder, limit)
    if repo is not None:
        return repo
    d = folder
    for _ in range(limit):
        try:
            names = sorted(os.listdir(d))
        except OSError:
            names = []
        if any(is_pin_file(n) and (d / n).is_file() for n in names) or any(_makefile_text(d / n) for n in names if n in _MAKEFILES):
            return d
        if d.parent == d:
            return None
        d = d.parent
    return None


def _makefile_text(path: Path) -> str | None:
    """A Makefile's text where a recipe of it pip-installs vLLM, else None."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""
    except OSError:
        return None
    return text if "vllm" in text and pip_lines.PIP_INSTALL.search(text) else None


def pins_above(ctx: ScanContext, root: Path, single: bool = False) -> list[Pin]:
    """Pins of the folders between the audited folder and its repository's root (a single file or a
    sub-folder audited on its own still runs with the project's pins), nearest folder first and
    named relative to the audited folder (`../requirements.txt`): pin files, and the `pip install` lines of a
    Makefile's recipes. Nothing when no repository holds the folder: where the project starts is then unknown,
    except for a `single` file, whose own folder's pins count too and whose project starts at project_root."""
    repo = project_root(root) if single else repository_root(root)
    if repo is None or (repo == root and not single):
        return []
    out: list[Pin] = []
    d, up = (root, 0) if single else (root.parent, 1)
    while True:
        try:
            names = sorted(os.listdir(d))
        except OSError:
            names = []
        for name in names:
            rel = "../" * up + name
            if not up and rel in ctx.files:
                continue  # the file audited: read already
            if name in _MAKEFILES and (text := _makefile_text(d / name)) is not None:
                found = script_pins(ctx, rel, text)
            elif truss_config.is_config_name(name) and (d / name).is_file():
                try:
                    found = truss_config.pins(ctx, rel, (d / name).read_text(encoding="utf-8-sig"))
                except (OSError, UnicodeDecodeError, ValueError):
                    continue
            elif is_pin_file(name) and (d / name).is_file():
                try:
                    text = (d / name).read_text(encoding="utf-8-sig")
                except (OSError, UnicodeDecodeError, ValueError):
                    continue
                found = scan(ctx, rel, text)
            else:
                continue
            for p in found:
                p.above = True
                out.append(p)
        if d == repo or d.parent == d:
            break
        d, up = d.parent, up + 1
    return out
