"""Framework copies that are projects of their own: which environment runs a vendored copy's scripts.

A root pin decides a vendored copy's files (engine/scan/pin_scope.py `deciding`) because the project's
environment is what runs them. That holds where the root pin is an environment — a requirements file, a
conda file, an image (LiveMCP-GRPO's requirements.txt over its verl checkout). It does not where the root
pin is only a package's dependency (its pyproject.toml, or the lock made from it), that package's files
leave the copy out, and the copy is an installable project whose own manifest requires vLLM: installing
the root package never installs the copy, and installing the copy brings its own vLLM. NovaSky-AI/SkyThought:
the root `skythought` evals package pins vllm==0.7.0 (pyproject, uv.lock) with packages.find
include = ["skythought", "skythought.evals*"]; skythought/skythought-rl is verl 0.1 with its own
pyproject requiring vllm<=0.6.3, and its README installs 0.6.3 there.

`outside(...)` gives, for each such copy root, whether the root package's file list is read and leaves
it out (True: the copy's pins decide its files) or is not read (False: setuptools' automatic discovery,
a setup.py; either environment may run them, so a verdict that only one release gives is not certain)."""
from __future__ import annotations

import fnmatch
from pathlib import PurePosixPath

from vllm_kb.engine.kb.tomlread import toml
from vllm_kb.engine.scan.pin_scope import _covers, is_variant

# the root's pins that are a package's dependencies, not an environment's
_PACKAGE_KINDS = ("pyproject", "setup", "lock")


def outside(read, pins: list, copy_roots: list[str], has_pyproject: bool = True) -> dict[str, bool]:
    """copy root → True where the root package's files are read and leave it out, False where unread."""
    roots = [q for q in pins if q.package == "vllm" and q.folder == "" and not is_variant(q.file)]
    if not roots or any(q.kind not in _PACKAGE_KINDS or q.above for q in roots):
        return {}  # no root pin, or one that is an environment (or of a repository above the audited folder)
    # a setup.py project has no pyproject.toml to read (ReCall, eval111: a phantom "unreadable" skip)
    text = (read("pyproject.toml") or "") if has_pyproject else ""
    try:
        data = toml().loads(text) if text else {}
    except ValueError:
        return {}
    out = {}
    for root in copy_roots:
        if not root or not _own_manifest(pins, root):
            continue
        got = _left_out(data, root, read)
        if got is not None:
            out[root] = got
    return out


def _own_manifest(pins: list, root: str) -> bool:
    """The copy is installable on its own and requires vLLM there (not only in an optional extra)."""
    return any(p.package == "vllm" and p.folder == root and not p.group and not is_variant(p.file)
               and (p.kind in ("pyproject", "setup") or p.kind == "requirements") for p in pins) and \
        any(p.folder == root and p.kind in ("pyproject", "setup") for p in pins)


def _left_out(data: dict, root: str, read) -> bool | None:
    """True: the root package's files are named and leave `root` out; False: not read;
    None: the root package takes it in (a uv workspace member, a package of its file list)."""
    tool = data.get("tool") or {}
    members = ((tool.get("uv") or {}).get("workspace") or {}).get("members") or []
    if any(isinstance(m, str) and fnmatch.fnmatchcase(root, m.strip("./") or m) for m in members):
        return None
    lock = read("uv.lock") or ""
    if f'editable = "{root}"' in lock or f'directory = "{root}"' in lock:
        return None
    setuptools = tool.get("setuptools") or {}
    packages = setuptools.get("packages")
    if isinstance(packages, dict) and isinstance(packages.get("find"), dict):
        return _left_out_of_find(packages["find"], root)
    if isinstance(packages, list):
        return None if _dotted(root) and any(_under(_dotted(root), str(n)) for n in packages) else True
    hatch = ((((tool.get("hatch") or {}).get("build") or {}).get("targets") or {}).get("wheel") or {}).get("packages")
    if isinstance(hatch, list):
        return None if any(_covers(str(h).strip("./"), root) for h in hatch) else True
    poetry = (tool.get("poetry") or {}).get("packages")
    if isinstance(poetry, list):
        paths = [str(PurePosixPath(str(e.get("from", "."))) / str(e.get("include", ""))).strip("./")
                 for e in poetry if isinstance(e, dict)]
        return None if any(_covers(p, root) for p in paths) else True
    return False  # automatic discovery (or a setup.py): which files it takes is not read


def _left_out_of_find(find: dict, root: str) -> bool | None:
    wheres = [str(w).strip("./") for w in find.get("where") or ["."]]
    include = [str(i) for i in find.get("include") or ["*"]]
    exclude = [str(e) for e in find.get("exclude") or []]
    for where in wheres:
        if not _covers(where, root):
            continue
        rel = root[len(where):].lstrip("/") if where else root
        name = _dotted(rel)
        if name and any(fnmatch.fnmatchcase(name, i) for i in include) and not any(fnmatch.fnmatchcase(name, e) for e in exclude):
            return None
    return True  # outside every `where`, no importable name (`skythought-rl`), or not matched


def _dotted(rel: str) -> str:
    """The import name of a folder (`a/b` → `a.b`); "" where a part is no identifier, so never a package."""
    parts = PurePosixPath(rel).parts
    return ".".join(parts) if parts and all(p.isidentifier() for p in parts) else ""


def _under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def siblings_only(files, choices: dict) -> bool:
    """Every folder that pins vLLM is a sub-project with its own package manifest (pyproject.toml,
    setup.py) beside a root package whose own manifest does not name vLLM: a pin applies to the files
    under its own project root, so it is no release for the root package or a sibling (eval115
    PKU-Alignment/align-anything: projects/eval-anything's `vllm >= 0.6.2` was read for align_anything/)."""
    have = set(files)
    if "" in choices or not choices or not ({"pyproject.toml", "setup.py"} & have):
        return False
    return all(f and any(f"{f}/{m}" in have for m in ("pyproject.toml", "setup.py")) for f in choices)
