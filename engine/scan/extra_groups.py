"""Which of a pyproject's extras an install names, where its extras pin vLLM differently.

`[project.optional-dependencies]` lists requirements per extra; only the extras an install names
are installed (`pip install -e ".[vllm]"`, `uv sync --extra vllm`, `poetry install -E vllm`,
`pdm install -G vllm`). A project with `vllm = ["vllm==0.8.5"]` and `vllm-latest = ["vllm>=0.10"]`
runs the one its scripts, Dockerfiles or README install: the vLLM pins of the other extras of that
file stand aside. Where no install names one of them, every extra is read, as before (the first by
line wins among equals: pins.choose)."""
from __future__ import annotations

import posixpath
import re

from vllm_kb.engine.kb.tomlread import toml
from vllm_kb.engine.scan.requirement import package_name

# `.[vllm,dev]`, `'.[vllm]'`, `-e .[vllm]`, `./[vllm]`; `--extra vllm`, `--extras "vllm dev"`, `-E vllm`, `-G vllm`
_DOT = re.compile(r"""(?:^|[\s'"=])\.?\.?/?\.?\[([\w ,.-]+)\]""")
_FLAG = re.compile(r"""(?:--extras?|--group|\s-E|\s-G)[ =]+["']?([\w .,-]+?)["']?(?=\s*(?:$|[;&|)]|\s-))""", re.M)
_INSTALL = re.compile(r"\b(?:install|sync|add)\b")
_SUFFIXES = (".sh", ".bash", ".md", ".rst", ".txt", ".yml", ".yaml", ".ipynb", ".toml", ".cfg", ".ps1", ".bat")


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name.strip()).lower()


def _named(text: str) -> set[str]:
    out: set[str] = set()
    for line in text.splitlines():
        if not _INSTALL.search(line):
            continue
        for m in _DOT.finditer(line):
            out |= {_norm(x) for x in m.group(1).split(",") if x.strip()}
        for m in _FLAG.finditer(line):
            out |= {_norm(x) for x in re.split(r"[ ,]+", m.group(1)) if x.strip()}
    return out


def _install_file(rel: str) -> bool:
    name = rel.rsplit("/", 1)[-1].lower()
    return name.endswith(_SUFFIXES) or name in ("makefile", "justfile", "dockerfile", "containerfile") or name.startswith("dockerfile.") \
        or name.endswith(".dockerfile")


def named_in(files: list[str], read, skip: frozenset[str] | set[str] = frozenset()) -> set[str]:
    """The extras the project's install lines name; "*" where one installs them all (`--all-extras`, `.[all]`)."""
    named: set[str] = set()
    for rel in files:
        if _install_file(rel) and rel not in skip:
            text = read(rel)
            if text and ("[" in text or "-extra" in text or " -E " in text or " -G " in text or "--group" in text):
                named |= _named(text) | ({"*"} if "--all-extras" in text else set())
    return named | ({"*"} if "all" in named else set())


def narrow(files: list[str], read, pins: list) -> list:
    """`pins` without the vLLM pins of the extras no install names, in each pyproject whose extras
    disagree on vLLM and some of whose extras an install names."""
    by_file: dict[str, list] = {}
    for p in pins:
        if p.package == "vllm" and p.group and p.kind == "pyproject":
            by_file.setdefault(p.file, []).append(p)
    split = {f for f, ps in by_file.items() if len({p.spec.replace(" ", "") for p in ps}) > 1}
    if not split:
        return pins
    named = named_in(files, read, split) - {"*"}  # the pyproject's own lines install nothing
    drop = set()
    for f in split:
        groups = {_norm(p.group) for p in by_file[f]}
        if groups & named:
            drop |= {id(p) for p in by_file[f] if _norm(p.group) not in named}
    return [p for p in pins if id(p) not in drop]


def installed_only(files: list[str], read, pins: list, vllm_pins: list) -> list:
    """`pins` (torch and the other packages vLLM's release pins) without those listed only under an
    extra that no install names, of a file that lists vLLM under another extra: the extras are then
    the engines to choose from, and the vLLM site runs with the vLLM one (verl's setup.py lists
    `torch==2.7.1` under its `sglang` extra, beside `vllm` in its `vllm` extra). An extra of a file whose
    vLLM is no extra's may still be installed beside it (L115 says so as a P1); where an install names
    every extra (`--all-extras`, `.[all]`), all stay."""
    vllm_extras = {(p.file, _norm(p.group)) for p in vllm_pins if p.group}
    grouped = [p for p in pins if p.group and any(f == p.file and g != _norm(p.group) for f, g in vllm_extras)]
    if not grouped:
        return pins
    named = named_in(files, read)
    if "*" in named:
        return pins
    drop = {id(p) for p in grouped if _norm(p.group) not in named}
    return [p for p in pins if id(p) not in drop]


_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def _lists_vllm(reqs) -> bool:
    return any(isinstance(r, str) and (m := _NAME.match(r)) is not None and package_name(m.group(1)) == "vllm"
               for r in reqs or ())


def optional_only(text: str) -> list[str]:
    """The extras of a pyproject.toml that list vLLM, where nothing an install always brings does (its
    dependencies, a dependency group — uv installs `dev` by default —, Poetry's main or group tables
    without `optional = true`); empty otherwise."""
    try:
        data = toml().loads(text)
    except Exception:  # noqa: BLE001 — a pyproject the pins reader already reported
        return []
    proj = data.get("project") or {}
    poetry = (data.get("tool") or {}).get("poetry") or {}
    groups = [g.get("dependencies") for g in (poetry.get("group") or {}).values() if isinstance(g, dict)]
    if _lists_vllm(proj.get("dependencies")) or any(_lists_vllm(g) for g in (data.get("dependency-groups") or {}).values()) \
            or any(isinstance(g, dict) and any(package_name(k) == "vllm" for k in g) for g in groups):
        return []
    extras = [str(n) for n, reqs in (proj.get("optional-dependencies") or {}).items() if _lists_vllm(reqs)]
    main = {package_name(k): v for k, v in (poetry.get("dependencies") or {}).items()}
    if "vllm" in main:
        if not (isinstance(main["vllm"], dict) and main["vllm"].get("optional")):
            return []
        extras += [str(n) for n, pkgs in (poetry.get("extras") or {}).items()
                   if any(package_name(str(x)) == "vllm" for x in pkgs or ())] or ["vllm"]
    return extras


def mark_unnamed(files: list[str], read, pins: list) -> None:
    """Mark the vLLM pins that only an optional extra holds, where no install line of the project names
    that extra (`unnamed_extra`): an extra's pin (pyproject, setup.py extras_require), and a lock's
    (uv/poetry/pdm) or a Poetry dependency's where the folder's pyproject lists vLLM in extras only
    (curator's poetry.lock `vllm 0.6.6.post1` under its `vllm` extra, eval89; t0-1's uv.lock `vllm 0.8.3`,
    eval90) — none where another pin of the folder (a requirements file, a Dockerfile, a README's
    `pip install vllm==…`, the file's own install_requires) installs vLLM anyway. docs/pins.md says what
    the audit then makes of them."""
    extras_of: dict[int, list[str]] = {}
    have = set(files)
    for p in (p for p in pins if p.package == "vllm"):
        if p.kind == "lock" or p.kind == "pyproject" and not p.group and p.file.endswith("pyproject.toml"):
            # a lock beside no pyproject.toml (ReCall's uv.lock, eval111): nothing to read, no skip to report
            near = posixpath.join(posixpath.dirname(p.file), "pyproject.toml").lstrip("/")
            text = read(near) if near in have else None
            extras_of[id(p)] = optional_only(text) if text else []
        else:
            extras_of[id(p)] = [p.group] if p.group else []
    installed = {p.folder for p in pins if p.package == "vllm" and not extras_of[id(p)]}
    named: set[str] | None = None
    for p in (p for p in pins if p.package == "vllm" and extras_of[id(p)] and p.folder not in installed):
        named = named_in(files, read) if named is None else named
        if "*" not in named and not {_norm(e) for e in extras_of[id(p)]} & named:
            p.unnamed_extra = extras_of[id(p)][0]
