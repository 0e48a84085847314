"""The vLLM version a project pins: requirements*.txt, pyproject.toml (PEP 621, Poetry, uv
dependency groups), setup.py / setup.cfg (engine/scan/setup_pins.py), conda environment files,
uv/poetry/pdm lock files and Pipenv's files (engine/scan/lock_pins.py), and the `pip install`
lines of a Dockerfile's RUN instructions, a notebook or a shell script (engine/scan/install_pins.py);
and the one version a folder's pins choose (docs/pins.md: the precedence as a whole)."""
from __future__ import annotations

import configparser
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.kb.versions import InvalidSpecifier, SpecifierSet, Version, newest_matching, try_parse
from vllm_kb.engine.scan import framework_git, lock_pins, source_pins
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.install_pins import dockerfile_pins, script_pins
from vllm_kb.engine.scan.requirement import HOST_PACKAGES, PACKAGES, RANK, REQUIREMENTS_SUFFIXES, Pin, from_requirement, line_of, make_pin, package_name
from vllm_kb.engine.scan.setup_pins import setup_cfg, setup_py
from vllm_kb.engine.kb.tomlread import error_line, toml

# read through this module by the rest of the scan and the checks
__all__ = ["HOST_PACKAGES", "PACKAGES", "RANK", "Pin", "VersionChoice", "choose", "dockerfile_pins", "from_requirement",
           "installed_range", "is_bare", "is_dockerfile", "is_pin_file", "is_readable", "package_name", "pins_above", "poetry_spec", "repository_root", "scan",
           "script_pins", "site_install"]


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
        return _requirements(rel, text)
    except toml().TOMLDecodeError as e:
        ctx.skip(rel, "toml-error", error_line(e), str(e))
    except yamlio.YamlError as e:
        ctx.skip(rel, "yaml-error", e.line, str(e))
    except SyntaxError as e:
        ctx.skip(rel, "python-syntax", e.lineno, e.msg)
    except (configparser.Error, ValueError, RecursionError) as e:  # a JSONDecodeError (Pipfile.lock) too
        ctx.skip(rel, "parse-error", getattr(e, "lineno", None), f"{type(e).__name__}: {e.msg}" if isinstance(e, json.JSONDecodeError) else type(e).__name__)
    return []


def _requirements(rel: str, text: str) -> list[Pin]:
    out = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split(" #", 1)[0].strip()
        if not line or line.startswith(("#", "-")):
            continue
        p = from_requirement(rel, n, line, "requirements") or framework_git.pin(rel, n, line, "requirements", Pin)
        if p:
            out.append(p)
    return out


def _pyproject(rel: str, text: str) -> list[Pin]:
    data = toml().loads(text)
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
requirements_pins = _requirements  # a file a requirements file includes with -r (engine/scan/req_chains.py)


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


@dataclass
class VersionChoice:
    version: str  # what checks are evaluated against
    pinned: bool
    basis: str  # pin | range | unbounded | none | unreadable | no-match | cli (i18n: version.<basis>)
    pin: Pin | None = None
    among: tuple[str, ...] | None = None  # a range's releases that pip can install beside the project's torch pin
    bare_beside: tuple[str, ...] = ()  # files of the folder that name vLLM without a version (read, set aside)

    @property
    def where(self) -> str:
        return f"{self.pin.file}:{self.pin.line}" if self.pin else ""


def choose(pins: list[Pin], known: list[Version], newest: str, beside: list[Pin] | None = None) -> VersionChoice:
    """One version from the pins of one folder (best-ranked file first). `beside`: the project's
    torch pins; pip resolves a vLLM range installed together with an exact one (the same
    requirements file) to the newest release in it whose own torch requirement that pin meets."""
    if not pins:
        return VersionChoice(newest, False, "none")
    # a pin, else a bounded range, else a bare name: `vllm` in one extra says less than `vllm>=0.6` in another,
    # and a bare name in one file never outranks a constraint in another of the folder: both apply to one
    # install (`pip install -r requirements.txt` with a bare `vllm` beside the pyproject's `vllm<=0.6.3`
    # installs a release the pyproject allows; CriticCoT simpleRL-reason)
    # a setup script that installs the project and then vllm==X leaves X in the environment, whatever the
    # project pins; two such scripts that disagree say nothing of which one was run
    # a specifier the audit cannot read (`vllm==${VLLM_VERSION}` with no value in reach) says the install is held
    # somewhere, not where: it never outranks a readable pin of the folder (DB-Opt-R1's install script over its
    # requirements file's vllm==0.11.0), and is chosen over a bare name only
    last = len({p.exact for p in pins if p.last_install and p.exact}) == 1
    best = sorted(pins, key=lambda p: (not (last and p.last_install and p.exact), is_bare(p), not is_readable(p), RANK.get(p.kind, 9),
                                       p.exact is None, not p.spec.strip(), p.file, p.line))[0]
    if last and best.last_install and (rest := [p for p in pins if not p.last_install and p.spec.strip()]):
        o = sorted(rest, key=lambda p: (RANK.get(p.kind, 9), p.exact is None, p.file, p.line))[0]
        best.replaces = (f"{o.file}:{o.line}", o.text)  # what the report says it stands over
    bare = tuple(f"{p.file}:{p.line}" for p in pins if p is not best and is_bare(p) and not is_bare(best))
    if best.source:  # built from vLLM's sources: the release is known only from a development version
        span = source_pins.span_of(best.exact, known) if best.source == "dev" else None
        return VersionChoice(source_pins.release_of(best.exact, known, newest), False, source_pins.BASIS, best,
                             tuple(str(v) for v in span) if span else None)
    if best.exact and try_parse(best.exact):
        return VersionChoice(str(try_parse(best.exact)), True, "pin", best, bare_beside=bare)
    try:
        spec = SpecifierSet(best.spec)
    except InvalidSpecifier:
        return VersionChoice(newest, False, "unreadable", best)
    if not spec:
        return VersionChoice(newest, False, "unbounded", best)
    fitting = _with_torch(known, best, beside or [])
    # install instructions name one release (engine/scan/extra_pins.py docs_floors): judged as it
    hit = _oldest_matching(spec, fitting) if best.kind == "docs" else newest_matching(spec, fitting)
    if hit is None and fitting is not known:  # no release of the range fits that torch: pip fails (L115's business)
        fitting, hit = known, newest_matching(spec, known)
    if hit is None:
        return VersionChoice(newest, False, "no-match", best)
    return VersionChoice(str(hit), False, "range", best, tuple(str(v) for v in fitting) if fitting is not known else None,
                         bare_beside=bare)


def is_bare(p: Pin) -> bool:
    return not p.spec.strip() and not p.exact and not p.source


def is_readable(p: Pin) -> bool:
    """An exact pin, a source build, or a specifier packaging reads (a bare name reads as no bound)."""
    if p.exact or p.source or not p.spec.strip():
        return True
    try:
        SpecifierSet(p.spec)
    except (InvalidSpecifier, ValueError):
        return False
    return True


def _oldest_matching(spec: SpecifierSet, known: list[Version]) -> Version | None:
    hits = [v for v in known if spec.contains(str(v))]
    return min(hits) if hits else None


def _with_torch(known: list[Version], best: Pin, beside: list[Pin]) -> list[Version]:
    """The releases pip can install beside an exact torch pin of the same requirements file (pip
    backtracks past a release whose exact torch requirement the pin contradicts); all of them when
    there is no such pin or none of them fits (pip then fails, which check L115 judges)."""
    from vllm_kb.engine.kb import dependency_pins

    exact = next((p.exact for p in beside if p.package == "torch" and p.file == best.file and p.exact
                  and best.kind in ("requirements", "conda") and ";" not in p.text and try_parse(p.exact)), None)
    if exact is None:
        return known
    # a release that states no torch requirement (or one this audit cannot read) is not ruled out
    return [v for v in known if dependency_pins.admits_torch(str(v), exact) is not False] or known


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


def pins_above(ctx: ScanContext, root: Path) -> list[Pin]:
    """Pins of the folders between the audited folder and its repository's root (a single file or a
    sub-folder audited on its own still runs with the project's pins), nearest folder first and
    named relative to the audited folder (`../requirements.txt`). Nothing when no repository holds
    the folder: where the project starts is then unknown."""
    repo = repository_root(root)
    if repo is None or repo == root:
        return []
    out: list[Pin] = []
    d, up = root.parent, 1
    while True:
        try:
            names = sorted(os.listdir(d))
        except OSError:
            names = []
        for name in names:
            if not is_pin_file(name) or not (d / name).is_file():
                continue
            try:
                text = (d / name).read_text(encoding="utf-8-sig")
            except (OSError, UnicodeDecodeError, ValueError):
                continue
            rel = "../" * up + name
            for p in scan(ctx, rel, text):
                p.above = True
                out.append(p)
        if d == repo or d.parent == d:
            break
        d, up = d.parent, up + 1
    return out


def site_install(found: list[Pin], known: list[Version] | None = None, newest: str | None = None) -> tuple[str, str, str] | None:
    """What a site's own install lines (a serving image's RUN, SkyPilot `setup:`, Modal's
    `pip_install`) say of its vLLM, as Site.installed: (release, "file:line", requirement) of the
    last bounded vLLM requirement: an exact pin as written, a range as the newest known release in
    it (the rule of a requirements file's range, choose). None where they name no vLLM, only a bare
    `vllm`, or a source build (engine/scan/source_pins.py reads that)."""
    named = [p for p in found if p.package == "vllm" and not p.source and p.spec.strip()]
    if not named:
        return None
    p = named[-1]
    if p.exact:
        return p.exact, f"{p.file}:{p.line}", p.text
    if known is None or newest is None:
        from vllm_kb.engine.kb import catalog

        known, newest = catalog.load().versions, catalog.load().newest
    c = choose([p], known, newest)
    return (c.version, f"{p.file}:{p.line}", p.text) if c.basis == "range" else None


def installed_range(installed: tuple[str, str, str], known: list[Version], newest: str) -> VersionChoice | None:
    """The range a site's own install allows (`pip install "vllm>=0.10,<0.12"` in SkyPilot's
    setup), chosen as a requirements file's range is: a failure that only some releases in it have
    is no P0. None for an exact release."""
    _, where, text = installed
    f, _, ln = where.rpartition(":")
    p = from_requirement(f, int(ln) if ln.isdigit() else 0, text.strip("'\""), "image")
    if p is None or p.package != "vllm" or p.exact or p.source or not p.spec.strip():
        return None
    c = choose([p], known, newest)
    return c if c.basis == "range" else None
