#!/usr/bin/env python3
"""Build knowledge/frameworks/vllm_symbols.json: for every vLLM module (`--all`: every release's,
but the model files; else those the RL and fine-tuning frameworks import from), the releases in
which the module exists and in which each name it binds can be imported from it — read with `ast`
from vLLM's sources of every release (never imported).

Which modules: those named by a `from vllm… import` / `import vllm.…` line anywhere in the
history of the framework repositories given (`git log -p -G vllm` over their Python files: what
any commit of theirs imported), plus the modules knowledge/frameworks/vllm_imports.yaml names.
Every name of such a module is kept, not only the ones seen imported, so that a copy of a
framework at a commit the history did not show is still judged.

A name can be imported from a module in a release when the module binds it at top level (the same
reading as tools/framework_vllm_imports.py: def, class, assignment, import, both branches of a
top-level `if`/`try`, never a `TYPE_CHECKING` body), when it is a submodule, or — in a module with
a lazy `__getattr__` — when it is spelled as a string there. A release where the module has a
`from … import *` or does not parse is `open`: any name may resolve there, nothing is judged; one
with a module `__getattr__` is `lazy`: a name found there resolves, a name not found is not judged
(the hook may build it).

engine/kb/vllm_symbols.py answers "does `from vllm.X import Y` work in vLLM 0.N, and since when".

Usage: python tools/vllm_public_imports.py --keep --all [--repos DIR …] [--vllm-src /work/sdists/src]
       [-o knowledge/frameworks/vllm_symbols.json]
"""
from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from framework_vllm_imports import _bound, _runs  # noqa: E402
from vllm_catalog import vkey  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
_FROM = re.compile(r"^\s*from\s+(vllm(?:\.[A-Za-z_]\w*)*)\s+import\b", re.M)
_IMPORT = re.compile(r"^\s*import\s+(vllm(?:\.[A-Za-z_]\w*)+)", re.M)
_IDENT = re.compile(r"[\"']([A-Za-z_]\w*)[\"']")


def modules_in(text: str) -> set[str]:
    return set(_FROM.findall(text)) | set(_IMPORT.findall(text))


def repo_modules(repo: Path) -> set[str]:
    """The vLLM modules any commit of a git repository imported from (its Python files)."""
    out: set[str] = set()
    log = subprocess.run(["git", "-C", str(repo), "log", "-p", "-G", "vllm", "--format=", "--", "*.py"],
                         capture_output=True, text=True, errors="replace", check=False).stdout
    for line in log.splitlines():
        if line.startswith("+"):
            out |= modules_in(line[1:])
    return out


@lru_cache(maxsize=None)
def _parsed(text: str) -> tuple[str, frozenset[str]]:
    """(kind, names bound at top level) of one module text: most files are the same from one
    release to the next, so each distinct text is parsed once."""
    names: set[str] = set()
    try:
        star = _bound(ast.parse(text).body, names)
    except (SyntaxError, ValueError, RecursionError):
        return "unknown", frozenset(names)
    return ("star" if star else "lazy" if "__getattr__" in names else "plain"), frozenset(names)


def _vllm_module(src: str, mod: str) -> tuple[str, frozenset[str], str] | None:
    """(kind, names, text) of a vLLM module in one release's source tree, or None when absent."""
    base = Path(src) / mod.replace(".", "/")
    for f in (base.with_suffix(".py"), base / "__init__.py"):
        if f.is_file():
            text = f.read_text("utf-8", "replace")
            return (*_parsed(text), text)
    if base.is_dir():  # a namespace package (no __init__.py)
        return "plain", frozenset(), ""
    return None


def all_modules(vsrc: Path) -> set[str]:
    """Every module of every release read, but the model files under vllm/model_executor/models/
    (a project names a model class through the registry, and the package itself stays: its
    submodules are names of it) and vLLM's own tests and benchmarks shipped in a few sdists."""
    out: set[str] = set()
    for rel in vsrc.iterdir():
        root = rel / "vllm"
        for f in root.rglob("*.py") if root.is_dir() else ():
            parts = f.relative_to(rel).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            mod = ".".join(parts)
            if not all(p.isidentifier() for p in parts) or ".tests" in mod or ".benchmarks" in mod:
                continue
            if mod.startswith("vllm.model_executor.models.") or mod.startswith("vllm.third_party."):
                continue
            out.add(mod)
    return out


def _names(src: str, mod: str) -> tuple[str, set[str]] | None:
    """(kind, importable names) of a module in one release; None when absent."""
    got = _vllm_module(src, mod)
    if got is None:
        return None
    kind, frozen, text = got
    names = set(frozen)
    base = Path(src) / mod.replace(".", "/")
    if base.is_dir():  # submodules are importable names of their package
        names |= {p.stem for p in base.iterdir() if p.suffix == ".py" and p.stem != "__init__"}
        names |= {p.name for p in base.iterdir() if p.is_dir() and (p / "__init__.py").is_file()}
    if kind == "lazy":
        names |= set(_IDENT.findall(text))
    return kind, names


def build(mods: set[str], vsrc: Path) -> dict:
    """The table for these modules (and the packages above them) over every release in `vsrc`."""
    versions = sorted((p.name for p in vsrc.iterdir() if (p / "vllm").is_dir()), key=vkey)
    # every package on the way is a module too (Python imports it first)
    full = {".".join(m.split(".")[:i]) for m in mods for i in range(1, len(m.split(".")) + 1)}
    table: dict[str, dict] = {}
    for mod in sorted(full):
        per = [_names(str(vsrc / v), mod) for v in versions]
        if not any(per):
            continue  # a compiled extension or a name that never was a module
        present = [p is not None for p in per]
        entry: dict = {"module": _runs(present, versions)}
        open_ = [p is not None and p[0] in ("star", "unknown") for p in per]
        if any(open_):
            entry["open"] = _runs(open_, versions)
        lazy = [p is not None and p[0] == "lazy" for p in per]
        if any(lazy):  # a module `__getattr__` may hand out names no string there spells
            entry["lazy"] = _runs(lazy, versions)
        by_span: dict[str, list[str]] = {}
        for name in sorted(set().union(*(p[1] for p in per if p))):
            if (name.startswith("__") and name.endswith("__")) or not name.isidentifier():
                continue  # dunders, and the `*` a star import leaves
            spans = _runs([p is not None and name in p[1] for p in per], versions)
            by_span.setdefault(" | ".join(spans), []).append(name)
        entry["names"] = dict(sorted(by_span.items()))
        table[mod] = entry
    return {"version": 1, "vllm_releases": versions, "modules": table}


ABOUT = ("vLLM's importable names per release, for every module but the model files (and the modules the frameworks "
         "import from): "
         "`module` the releases where the module exists, `open` those where any name may resolve (a star import, a file "
         "that does not parse), `lazy` those where a module __getattr__ hands out names (a name missing there is not "
         "judged), `names` each run of releases ('A | B': one specifier per run) with the names importable "
         "from the module there. Written by tools/vllm_public_imports.py from vLLM's sources of every release; do not "
         "edit by hand.")


def dump(data: dict) -> str:
    """JSON (it loads thirty times faster than the same YAML), one module a line so diffs stay readable."""
    head = {"about": ABOUT, "version": data["version"], "vllm_releases": data["vllm_releases"]}
    lines = [json.dumps(head, ensure_ascii=False)[:-1] + ', "modules": {']
    mods = list(data["modules"].items())
    for i, (mod, entry) in enumerate(mods):
        lines.append(json.dumps(mod) + ": " + json.dumps(entry, ensure_ascii=False) + ("," if i < len(mods) - 1 else ""))
    return "\n".join(lines) + "\n}}\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repos", type=Path, nargs="*", default=[], help="git checkouts of the frameworks")
    ap.add_argument("--all", action="store_true", help="every module of every release (engine/check/project_imports.py "
                    "judges what a project's own code imports), not only the frameworks'")
    ap.add_argument("--keep", action="store_true", help="keep the modules the table already holds")
    ap.add_argument("--vllm-src", type=Path, default=Path("/work/sdists/src"))
    ap.add_argument("-o", "--out", type=Path, default=ROOT / "knowledge" / "frameworks" / "vllm_symbols.json")
    args = ap.parse_args(argv)
    mods: set[str] = set()
    for repo in args.repos:
        mods |= repo_modules(repo)
    if args.keep and args.out.is_file():
        mods |= set(json.loads(args.out.read_text("utf-8")).get("modules") or {})
    if args.all:
        mods |= all_modules(args.vllm_src)
    known = yaml.safe_load((ROOT / "knowledge" / "frameworks" / "vllm_imports.yaml").read_text("utf-8")) or {}
    for row in known.get("rows") or []:
        for imp in row.get("imports") or []:
            mods.add(imp["import"].rpartition(".")[0])
    data = build(mods, args.vllm_src)
    args.out.write_text(dump(data), encoding="utf-8")
    print(f"{len(data['modules'])} modules → {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
