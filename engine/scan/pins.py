"""The vLLM version a project pins: requirements*.txt, pyproject.toml (PEP 621, Poetry, uv
dependency groups), setup.py / setup.cfg, conda environment files, uv/poetry lock files, and the
`pip install` lines of a Dockerfile's RUN instructions (the image the project runs in)."""
from __future__ import annotations

import ast
import configparser
import os
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from vllm_kb.engine.kb import dependency_pins, yamlio
from vllm_kb.engine.kb.versions import InvalidSpecifier, SpecifierSet, Version, newest_matching, try_parse
from vllm_kb.engine.scan import framework_git, pip_lines, source_pins
from vllm_kb.engine.scan.images import framework_image_pins
from vllm_kb.engine.scan.context import ScanContext, parse_python
from vllm_kb.engine.kb.tomlread import toml


# What changes an audit: vLLM, the frameworks that drive it, its plugins, transformers (reads the config), torch & co.
# Serving packages that start vLLM themselves (engine/check/host_compat.py): read for the site they start, not listed as the project's
HOST_PACKAGES = ("fschat", "xinference", "ray", "ai-dynamo")
PACKAGES = ("vllm", "trl", "verl", "openrlhf", "llamafactory", "ms-swift", "easyr1", "nemo-rl", "sglang", "vllm-omni", "transformers",
            *dependency_pins.PACKAGES, *HOST_PACKAGES)
# A package name must end at an operator, `[`, `@`, `;` or the end (vllm, not vllm-flash-attn).
_REQ = re.compile(r"^\s*(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)(?P<extras>\[[^\]]*\])?(?=\s*(?:$|[<>=!~;@(]))\s*(?:@\s*(?P<url>\S+)|(?P<spec>[^;#@]*))(?:;.*)?$", re.I)
_WHEEL_VERSION = re.compile(r"[A-Za-z0-9_.]+-(\d+(?:\.\d+)+(?:\.post\d+)?)", re.I)


def package_name(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()

# Where a pin comes from decides which wins inside one folder: the lock file saw what was installed.
RANK = {"lock": 0, "requirements": 1, "pyproject": 2, "setup": 3, "conda": 4, "dockerfile": 5}


@dataclass
class Pin:
    file: str
    line: int
    text: str  # as written, e.g. "vllm==0.6.3"
    spec: str  # specifier part, e.g. "==0.6.3"
    kind: str  # lock | requirements | pyproject | setup | conda
    exact: str | None = None
    package: str = "vllm"
    extras: tuple[str, ...] = ()  # trl[vllm]: the framework pulls vLLM in
    above: bool = False  # from a folder above the audited one (its repository's), applying to all of it
    own: bool = False  # the project is this package's own source (a fork that keeps its name)
    source: str = ""  # git | checkout | nightly | dev: vLLM built from its sources (engine/scan/source_pins.py)

    @property
    def folder(self) -> str:
        if self.above:
            return ""
        p = PurePosixPath(self.file).parent.as_posix()
        return "" if p == "." else p


def is_pin_file(rel: str) -> bool:
    head, _, name = rel.rpartition("/")
    name = name.lower()
    return (
        (name.startswith("requirements") and name.endswith((".txt", ".in")))
        or (name.startswith("constraints") and name.endswith(".txt"))
        or head.rpartition("/")[2].lower() == "requirements" and name.endswith((".txt", ".in"))
        or name in ("pyproject.toml", "setup.py", "setup.cfg", "environment.yml", "environment.yaml", "conda.yml", "conda.yaml", "uv.lock", "poetry.lock")
    )


def is_dockerfile(rel: str) -> bool:
    name = rel.rpartition("/")[2].lower()
    return name in ("dockerfile", "containerfile") or name.startswith("dockerfile.") or name.endswith(".dockerfile")


def scan(ctx: ScanContext, rel: str, text: str) -> list[Pin]:
    low = text.lower()
    if not any(p in low for p in ("vllm", "trl", "verl", "openrlhf", "llamafactory", "swift", "easyr1", "nemo", "sglang", "transformers", "torch", "xformers", "flash")):
        return []
    name = PurePosixPath(rel).name.lower()
    if is_dockerfile(rel) or name.endswith(".ipynb"):  # a notebook as its pip lines (notebook_json.pip_lines)
        return _dockerfile(rel, text)
    try:
        if name == "pyproject.toml":
            return _pyproject(rel, text)
        if name in ("uv.lock", "poetry.lock"):
            return _lock(rel, text)
        if name == "setup.py":
            return _setup_py(rel, text, ctx)
        if name == "setup.cfg":
            return _setup_cfg(rel, text)
        if name.endswith((".yml", ".yaml")):
            return _conda(rel, text)
        return _requirements(rel, text)
    except toml().TOMLDecodeError as e:
        ctx.skip(rel, "toml-error", getattr(e, "lineno", None), str(e))
    except yamlio.YamlError as e:
        ctx.skip(rel, "yaml-error", e.line, str(e))
    except SyntaxError as e:
        ctx.skip(rel, "python-syntax", e.lineno, e.msg)
    except (configparser.Error, ValueError, RecursionError) as e:
        ctx.skip(rel, "parse-error", detail=type(e).__name__)
    return []


def _from_requirement(rel: str, line: int, req: str, kind: str) -> Pin | None:
    m = _REQ.match(req)
    if not m or package_name(m["name"]) not in PACKAGES:
        return None
    pkg = package_name(m["name"])
    extras = tuple(sorted(package_name(x) for x in (m["extras"] or "[]")[1:-1].split(",") if x.strip()))
    if m["url"]:
        wm = _WHEEL_VERSION.search(m["url"].rsplit("/", 1)[-1])
        return framework_git.pin(rel, line, req, kind, Pin, extras) or Pin(rel, line, req.strip(), f"=={wm.group(1)}" if wm else "", kind,
                   wm.group(1) if wm else None, pkg, extras, source="git" if pkg == "vllm" and source_pins.is_git_url(req) else "")
    spec = (m["spec"] or "").strip().strip("()").strip()
    p = _pin(rel, line, req.strip(), spec, kind)
    p.package, p.extras = pkg, extras
    p.source = "dev" if pkg == "vllm" and source_pins.is_dev(p.exact) else ""
    return p


def _pin(rel, line, text, spec, kind) -> Pin:
    try:
        exact = SpecifierSet(spec).exact
    except InvalidSpecifier:
        exact = None
    return Pin(rel, line, text, spec, kind, exact)


def _requirements(rel: str, text: str) -> list[Pin]:
    out = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split(" #", 1)[0].strip()
        if not line or line.startswith(("#", "-")):
            continue
        p = _from_requirement(rel, n, line, "requirements") or framework_git.pin(rel, n, line, "requirements", Pin)
        if p:
            out.append(p)
    return out


def _line_of(text: str, needle: str) -> int:
    return next((n for n, raw in enumerate(text.splitlines(), 1) if needle in raw), 1)


def _pyproject(rel: str, text: str) -> list[Pin]:
    data = toml().loads(text)
    reqs: list[str] = []
    proj = data.get("project", {})
    reqs += [r for r in proj.get("dependencies", []) if isinstance(r, str)]
    for group in (proj.get("optional-dependencies") or {}).values():
        reqs += [r for r in group if isinstance(r, str)]
    for group in (data.get("dependency-groups") or {}).values():
        reqs += [r for r in group if isinstance(r, str)]
    out = [p for r in reqs if (p := _from_requirement(rel, _line_of(text, r), r, "pyproject"))]
    poetry = (data.get("tool", {}).get("poetry", {}) or {})
    tables = [poetry.get("dependencies", {})] + [g.get("dependencies", {}) for g in (poetry.get("group") or {}).values() if isinstance(g, dict)]
    for deps in tables:
        for key, val in (deps or {}).items():
            if package_name(key) not in PACKAGES:
                continue
            spec = val if isinstance(val, str) else (val.get("version", "") if isinstance(val, dict) else "")
            spec = "" if spec.strip() == "*" else spec.strip()
            p = _pin(rel, _line_of(text, key), f"{key} = {spec!r}", spec, "pyproject")
            p.package = package_name(key)
            out.append(p)
    return out


def _lock(rel: str, text: str) -> list[Pin]:
    data = toml().loads(text)
    out = []
    for pkg in data.get("package", []):
        name = package_name(str(pkg.get("name", ""))) if isinstance(pkg, dict) else ""
        if name in PACKAGES and pkg.get("version"):
            v = str(pkg["version"])
            out.append(Pin(rel, _line_of(text, f'name = "{pkg["name"]}"') + 1, f"{name} {v}", f"=={v}", "lock", v, name))
    return out


def _setup_py(rel: str, text: str, ctx: ScanContext | None = None) -> list[Pin]:
    tree = parse_python(text, rel)
    out = []
    own = _own_package(tree, rel, ctx)
    # extras_require={"vllm": [...]}: a key names an extra, it is no requirement; nor is the
    # project's own metadata (setup(name="verl") of a fork: its release is `own`)
    keys = {id(k) for node in ast.walk(tree) if isinstance(node, ast.Dict) for k in node.keys if k is not None}
    keys |= {id(kw.value) for node in ast.walk(tree) if isinstance(node, ast.Call) for kw in node.keywords
             if kw.arg in ("name", "version", "description", "author", "url", "license", "python_requires")}
    if own is not None:
        keys.add(id(own[1]))
    for node in ast.walk(tree):
        if id(node) in keys:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.strip()[:1].isalpha():
            p = _from_requirement(rel, node.lineno, node.value, "setup")
            if p:
                out.append(p)
    return out + ([own[0]] if own is not None and own[0] is not None else [])


def _own_package(tree, rel: str, ctx) -> tuple[Pin | None, ast.AST] | None:
    """A project that is itself a framework release — a fork that keeps the framework's name, as
    Search-R1 and TinyZero keep verl's `setup(name="verl", version=…)`: that release drives vLLM
    here. The version is the literal, or the `<name>/version/version` file verl's setup.py reads."""
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "setup"):
            continue
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        name = kw.get("name")
        if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
            return _version_txt(rel, node, ctx)
        pkg = package_name(name.value)
        if pkg not in PACKAGES or pkg == "vllm":
            return None
        version = kw.get("version")
        v = version.value if isinstance(version, ast.Constant) and isinstance(version.value, str) else None
        if v is None and ctx is not None:
            path = f"{PurePosixPath(rel).parent.as_posix()}/{name.value}/version/version".removeprefix("./")
            got = ctx.read(path) if path in ctx.file_set() else None
            v = got.strip() if got and re.fullmatch(r"\s*\d+(\.\d+)*\S*\s*", got) else None
        if not v:
            return None, name
        return Pin(rel, node.lineno, f"{name.value} {v} (this project)", f"=={v}", "setup", v, pkg, own=True), name
    return None


def _version_txt(rel: str, node, ctx) -> tuple[Pin | None, ast.AST] | None:
    """An OpenRLHF checkout: setup.py names the package through a function (openrlhf or
    openrlhf-nightly) and reads `version.txt` ("0.3.0.github" in 0.3.0); the checkout is that release."""
    if ctx is None:
        return None
    folder = PurePosixPath(rel).parent.as_posix()
    base = "" if folder in ("", ".") else folder + "/"
    if f"{base}openrlhf/__init__.py" not in ctx.file_set() or f"{base}version.txt" not in ctx.file_set():
        return None
    m = re.match(r"\s*(\d+(?:\.\d+)+(?:\.post\d+)?)", ctx.read(f"{base}version.txt") or "")
    if not m:
        return None
    v = m.group(1)
    return Pin(rel, node.lineno, f"openrlhf {v} (this project)", f"=={v}", "setup", v, "openrlhf", own=True), node


# pip options that take a value: their value is not a requirement
_PIP_TAKES = {"-r", "--requirement", "-c", "--constraint", "-e", "--editable", "-i", "--index-url", "--extra-index-url",
              "-f", "--find-links", "-t", "--target", "--prefix", "--root", "--python", "--trusted-host", "--platform",
              "--python-version", "--implementation", "--abi", "--src", "--upgrade-strategy", "--progress-bar",
              "--cache-dir", "--timeout", "--retries", "--config-settings", "-C", "--global-option", "--torch-backend",
              "--index-strategy", "--index", "--default-index", "--only-binary", "--no-binary"}


def _dockerfile(rel: str, text: str) -> list[Pin]:
    """Requirements named on `RUN … pip install …` lines (continuations joined), up to the end of
    that shell command; options and their values skipped. The environment image a project's
    scripts run in pins the folder; an image whose ENTRYPOINT/CMD starts vLLM keeps its vllm pin
    to its own site."""
    out: list[Pin] = []
    lines = text.splitlines()
    # an image that starts vLLM itself: its vllm pin is that site's own (Site.installed), not the folder's
    serves = re.search(r"^\s*(?:ENTRYPOINT|CMD)\b.*vllm", text, re.I | re.M) is not None
    out += framework_image_pins(rel, lines, serves, Pin)
    for start, _, logical, words in pip_lines.pip_commands(text):
        skip = False
        for w in words:
            if skip:
                skip = False
            elif w.startswith("-"):
                skip = w in _PIP_TAKES
            elif (p := _from_requirement(rel, n := _line_of_word(lines, start, w), w, "dockerfile")
                  or source_pins.git_pin(rel, n, w, "dockerfile", Pin)) is not None and not (serves and p.package == "vllm"):
                p.source = p.source or ("nightly" if p.package == "vllm" and not p.exact and source_pins.NIGHTLY in logical else "")
                out.append(p)
    return out


def _line_of_word(lines: list[str], start: int, word: str) -> int:
    for n in range(start, len(lines) + 1):
        if word in lines[n - 1]:
            return n
    return start


def _setup_cfg(rel: str, text: str) -> list[Pin]:
    out = []
    for n, raw in enumerate(text.splitlines(), 1):
        p = _from_requirement(rel, n, raw.strip(), "setup")
        if p and raw.startswith((" ", "\t")):
            out.append(p)
    return out


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
                p = _pin(rel, doc.line_of(("dependencies", i)), spec, ver_spec, "conda")
                p.package = package_name(m.group(1))
                out.append(p)
            else:
                req = _from_requirement(rel, doc.line_of(("dependencies", i)), spec, "conda")
                if req:
                    out.append(req)
        elif isinstance(dep, dict) and isinstance(dep.get("pip"), list):
            for j, r in enumerate(dep["pip"]):
                if isinstance(r, str):
                    req = _from_requirement(rel, doc.line_of(("dependencies", i, "pip", j)), r, "conda")
                    if req:
                        out.append(req)
    return out


@dataclass
class VersionChoice:
    version: str  # what checks are evaluated against
    pinned: bool
    basis: str  # pin | range | unbounded | none | unreadable | no-match | cli (i18n: version.<basis>)
    pin: Pin | None = None

    @property
    def where(self) -> str:
        return f"{self.pin.file}:{self.pin.line}" if self.pin else ""


def choose(pins: list[Pin], known: list[Version], newest: str) -> VersionChoice:
    """One version from the pins of one folder (best-ranked file first)."""
    if not pins:
        return VersionChoice(newest, False, "none")
    # a pin, else a bounded range, else a bare name: `vllm` in one extra says less than `vllm>=0.6` in another
    best = sorted(pins, key=lambda p: (RANK.get(p.kind, 9), p.exact is None, not p.spec.strip(), p.file, p.line))[0]
    if best.source:  # built from vLLM's sources: the release is known only from a development version
        return VersionChoice(source_pins.release_of(best.exact, known, newest), False, source_pins.BASIS, best)
    if best.exact and try_parse(best.exact):
        return VersionChoice(str(try_parse(best.exact)), True, "pin", best)
    try:
        spec = SpecifierSet(best.spec)
    except InvalidSpecifier:
        return VersionChoice(newest, False, "unreadable", best)
    if not spec:
        return VersionChoice(newest, False, "unbounded", best)
    hit = newest_matching(spec, known)
    if hit is None:
        return VersionChoice(newest, False, "no-match", best)
    return VersionChoice(str(hit), False, "range", best)


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
