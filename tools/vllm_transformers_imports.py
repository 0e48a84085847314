#!/usr/bin/env python3
"""Build knowledge/vllm/transformers_imports.yaml: the `from transformers… import X` statements
each vLLM release runs while it starts, and the transformers releases that no longer have them
— read with `ast` from vLLM's sdists and transformers' wheels, never imported.

vLLM declares only a floor on transformers for most of its releases (`transformers >= 4.51.1`),
so a project that pins (or later installs) a newer transformers gets it; when that transformers
removed or moved a name vLLM imports at module level, importing vLLM stops with "ImportError:
cannot import name 'X' from 'transformers…'" (or ModuleNotFoundError for a module that is gone),
before any model is read.

What counts as run at start (ENTRIES): the modules `vllm serve` (vllm/entrypoints/openai/
api_server.py) and `from vllm import LLM` (vllm/entrypoints/llm.py) import, with every vLLM module
they import at module level and the `__init__` of each package on the way — the same closure and
the same guards as tools/framework_vllm_imports.py (no `try`, no `if TYPE_CHECKING`, no other
`if`). Of those modules, the unguarded `from transformers… import` statements are checked.

A name resolves in a transformers release when its module is a file or package of that wheel and
the name is bound at the module's top level (both branches of a top-level if/try), is a submodule,
or — for a lazy package (`_LazyModule`: transformers itself, its models packages) — is spelled as
a string in the package's `__init__` or bound at the top level of any module below it. Presence is
read generously so that absence is certain: only a name that resolves in an earlier transformers
release and in none from some release on is recorded (`removed`: that release), and only when the
vLLM release's own requirement allows it (a requirement that excludes it would have stopped pip).

Usage: python tools/vllm_transformers_imports.py --wheels DIR [--vllm-src /work/sdists/src]
       [-o knowledge/vllm/transformers_imports.yaml] [--check]
(DIR holds transformers-<version>-py3-none-any.whl as `pip download transformers==X --no-deps`
leaves them: the last patch of each minor release is enough)
"""
from __future__ import annotations

import argparse
import ast
import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import Callable

import yaml
from packaging.specifiers import SpecifierSet

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vllm_kb.engine.scan.framework_source import unguarded as _unguarded  # noqa: E402
from vllm_architectures import registry_entries, registry_file  # noqa: E402
from transformers_wheel import Wheel, defines, first_missing as _first_missing  # noqa: E402
from vllm_catalog import vkey  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "knowledge" / "vllm" / "transformers_imports.yaml"
REQUIRES = ROOT / "knowledge" / "vllm" / "model_types.yaml"  # vllm_requires: each release's transformers range
ENTRIES = {"serve": "vllm/entrypoints/openai/api_server.py", "offline": "vllm/entrypoints/llm.py"}
_WHEEL = re.compile(r"transformers-(\d+\.\d+\.\d+)-py3-none-any\.whl$")
FIRST_VLLM = "0.4.0"  # older releases import next to nothing from transformers at start
# transformers 5 serves removed module paths and names through an import hook (_LEGACY_MODULE_ALIASES,
# `_LegacyModuleAliasFinder`: tokenization_utils, image_processing_x_fast …) that a static read
# cannot follow: imports are judged against the 4.x wheels only (registrations against all)
IMPORTS_READ_BELOW = "5.0.0"


# Module-level imports are read by their lines: a statement at column 0 is neither under `try`, `if`
# (TYPE_CHECKING or a version gate) nor in a function — exactly the unguarded ones. Each hit that
# ends up in the table is confirmed with `ast` (a docstring line that looks like an import is not).
_FROM = re.compile(r"^from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)", re.M)
_IMPORT = re.compile(r"^import[ \t]+([^\n]+)", re.M)
# a model type vLLM registers with AutoConfig at import (exist_ok left False): transformers raises
# "'X' is already used by a Transformers config, pick another name." once it maps X itself
_REGISTER = re.compile(r"^AutoConfig\.register\(\s*[\"'](\w+)[\"']([^)\n]*)\)", re.M)
# what vLLM reads from the tokenizer it loads while the engine starts (get_tokenizer wraps every HF
# tokenizer in get_cached_tokenizer, 0.4.0–0.11.x): an attribute a transformers release no longer
# defines stops the engine with "AttributeError: <Tokenizer> has no attribute X" before any request
TOKENIZER_READS = ("vllm/transformers_utils/tokenizer.py", "get_cached_tokenizer", "tokenizer")


class _Tree:
    """One vLLM release's package: each file's module-level imports, read on first use."""

    def __init__(self, src: Path):
        self.src = src
        self._imports: dict[str, list[tuple[int, str, str | None]]] = {}

    def __contains__(self, path) -> bool:
        return (self.src / path).is_file()

    def imports(self, path: str) -> list[tuple[int, str, str | None]]:
        """(line, absolute module, name or None) of each module-level import of the file."""
        if path not in self._imports:
            text = (self.src / path).read_text("utf-8", "replace")
            out: list[tuple[int, str, str | None]] = []
            pkg = path[:-3].split("/")
            pkg = pkg[:-1]  # the package a relative import starts from (an __init__'s is its folder)
            for m in _FROM.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                dots = len(m.group(1)) - len(m.group(1).lstrip("."))
                mod = m.group(1)[dots:]
                if dots:
                    base = pkg[: len(pkg) - (dots - 1)]
                    mod = ".".join(base + ([mod] if mod else []))
                names = re.sub(r"#[^\n]*", "", m.group(2)).strip("()\\ \t\n")
                for n in names.replace("\\\n", " ").split(","):
                    n = n.strip().split(" as ")[0].strip()
                    if re.fullmatch(r"\w+", n):
                        out.append((line, mod, n))
            for m in _IMPORT.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                for n in re.sub(r"#.*", "", m.group(1)).split(","):
                    n = n.strip().split(" as ")[0].strip()
                    if re.fullmatch(r"[\w.]+", n):
                        out.append((line, n, None))
            self._imports[path] = out
        return self._imports[path]

    def confirmed_call(self, path: str, line: int) -> bool:
        """A module-level expression statement (the register call) starts on that line."""
        try:
            tree = ast.parse((self.src / path).read_text("utf-8", "replace"))
        except SyntaxError:
            return False
        return any(isinstance(s, ast.Expr) and s.lineno == line for s in _unguarded(tree.body))

    def confirmed(self, path: str, line: int) -> bool:
        """The import on that line is a module-level statement nothing guards (read with ast)."""
        try:
            tree = ast.parse((self.src / path).read_text("utf-8", "replace"))
        except SyntaxError:
            return False
        return any(isinstance(s, (ast.Import, ast.ImportFrom)) and s.lineno == line for s in _unguarded(tree.body))


def _path_of(mod: str, tree: _Tree) -> str | None:
    for cand in (mod.replace(".", "/") + ".py", mod.replace(".", "/") + "/__init__.py"):
        if cand in tree:
            return cand
    return None


def loaded(tree: _Tree, entry: str, stop: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """The vLLM files that importing `entry` runs, entry first (packages above each file too); the walk
    does not enter `stop` (files already run, with everything they import)."""
    seen, todo = [], [entry]
    while todo:
        path = todo.pop()
        if path in seen or path not in tree or path in stop:
            continue
        seen.append(path)
        parts = path[:-3].split("/")
        if parts[-1] == "__init__":
            parts = parts[:-1]
        targets = [".".join(parts[:i]) for i in range(1, len(parts))]
        for _, mod, name in tree.imports(path):
            if mod.split(".")[0] == "vllm":
                targets += [mod] + ([f"{mod}.{name}"] if name else [])
        for mod in targets:
            p = _path_of(mod, tree)
            if p and p not in seen:
                todo.append(p)
    return seen


def tf_imports(tree: _Tree, files: list[str]):
    """(file, line, module, name) of each module-level transformers import in `files`."""
    for path in files:
        for line, mod, name in tree.imports(path):
            if mod.split(".")[0] == "transformers" and (name is not None or "." in mod):
                yield path, line, mod, name


def registers(tree: _Tree, files: list[str]):
    """(file, line, model type) of each module-level AutoConfig.register without exist_ok=True."""
    for path in files:
        text = (tree.src / path).read_text("utf-8", "replace")
        if "AutoConfig.register" not in text:
            continue
        for m in _REGISTER.finditer(text):
            if "exist_ok" not in m.group(2):
                yield path, text.count("\n", 0, m.start()) + 1, m.group(1)


def tokenizer_reads(tree: _Tree):
    """(file, line, attribute) of each attribute get_cached_tokenizer reads from the tokenizer it wraps
    (the function's own body, not the properties of the class it builds, which only return them)."""
    path, fn, var = TOKENIZER_READS
    if path not in tree:
        return
    mod = ast.parse((tree.src / path).read_text("utf-8", "replace"))
    for f in mod.body:
        if isinstance(f, ast.FunctionDef) and f.name == fn:
            seen: set[str] = set()
            for s in f.body:
                if isinstance(s, (ast.ClassDef, ast.FunctionDef)):
                    continue
                for n in ast.walk(s):
                    if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == var \
                            and isinstance(n.ctx, ast.Load) and n.attr not in seen:
                        seen.add(n.attr)
                        yield path, n.lineno, n.attr


_MODELS = "vllm/model_executor/models/"


def model_files(tree: _Tree, path: str, seen: set[str] | None = None) -> list[str]:
    """The model module and the model modules it imports at module level (qwen2_5_vl → qwen2_vl …):
    what vLLM's registry imports when it inspects the architecture (the rest was imported at start)."""
    seen = set() if seen is None else seen
    if path in seen or path not in tree:
        return []
    seen.add(path)
    for _, mod, name in tree.imports(path):
        for m in [mod] + ([f"{mod}.{name}"] if name else []):
            cand = m.replace(".", "/") + ".py"
            if cand.startswith(_MODELS):
                model_files(tree, cand, seen)
    return sorted(seen)


def arch_modules(root: Path) -> dict[str, list[str]]:
    """The model module of each architecture the release's registry names → those architectures."""
    reg = registry_file(root)
    archs: dict[str, list[str]] = {}
    for arch, module, _ in registry_entries(reg) if reg else []:
        if module:
            archs.setdefault(_MODELS + module + ".py", []).append(arch)
    return archs


def _spans(releases: list[str], all_releases: list[str]) -> list[list[str]]:
    out: list[list[str]] = []
    for v in sorted(releases, key=vkey):
        i = all_releases.index(v)
        if out and all_releases.index(out[-1][1]) == i - 1:
            out[-1][1] = v
        else:
            out.append([v, v])
    return out


def admitted(tversions: list[str]) -> Callable[[str], list[int]]:
    """Per vLLM release, the indices into `tversions` of the transformers releases its own requirement
    admits (model_types.yaml `vllm_requires`, a post release read as its base where it has no entry;
    every one where the release states none): one pip can install beside it."""
    requires = yaml.safe_load(REQUIRES.read_text("utf-8")).get("vllm_requires") or {}

    def allowed(version: str) -> list[int]:
        own = requires.get(version) or requires.get(version.split(".post")[0])
        return [i for i, v in enumerate(tversions) if own is None or SpecifierSet(own).contains(v)]
    return allowed


def sources(wheel_dir: Path, vsrc: Path, first: str) -> tuple[list[str], list[Wheel], list[str]]:
    """The transformers releases read, their wheels, and the vLLM releases unpacked under `vsrc` from
    `first` on (folders named as a release, X.Y.Z or X.Y.Z.postN)."""
    found = {m.group(1): p for p in wheel_dir.iterdir() if (m := _WHEEL.search(p.name))}
    tversions = sorted(found, key=vkey)
    vversions = [v for v in sorted((p.name for p in vsrc.iterdir() if (p / "vllm").is_dir()
                                    and re.fullmatch(r"[\d.]+(?:\.post\d+)?", p.name)), key=vkey)
                 if vkey(v) >= vkey(first)]
    return tversions, [Wheel(found[v]) for v in tversions], vversions


def build(wheel_dir: Path, vsrc: Path) -> dict:
    tversions, wheels, vversions = sources(wheel_dir, vsrc, FIRST_VLLM)
    cache: dict[tuple[str, str | None], str | None] = {}

    below = [i for i, v in enumerate(tversions) if vkey(v) < vkey(IMPORTS_READ_BELOW)]

    def removed(mod: str, name: str | None) -> str | None:
        if (mod, name) not in cache:
            cache[(mod, name)] = _first_missing([wheels[i].resolves(mod, name) for i in below],
                                                [tversions[i] for i in below])
        return cache[(mod, name)]

    rows: dict[str, list[dict]] = {}
    per_model: dict[tuple, dict] = {}
    for version in vversions:
        tree = _Tree(vsrc / version)
        got: dict[tuple[str, str | None], dict] = {}
        started: set[str] = set()
        for entry, root in ENTRIES.items():
            if root not in tree:
                continue
            files = loaded(tree, root)
            started.update(files)
            for path, line, mod, name in tf_imports(tree, files):
                key = (mod, name)
                if removed(mod, name) is None or not tree.confirmed(path, line):
                    continue
                row = got.setdefault(key, {"import": f"{mod}.{name}" if name else mod, "module": mod, "name": name,
                                           "file": path, "line": line, "removed": cache[key], "entries": []})
                if entry not in row["entries"]:
                    row["entries"].append(entry)
            for path, line, model_type in registers(tree, files):
                if not tree.confirmed_call(path, line):
                    continue
                have = [w.maps(model_type) for w in wheels]
                if not any(have):
                    continue
                first = tversions[have.index(True)]
                if not all(have[have.index(True):]):
                    continue  # mapped, then dropped again: not a fact to hold a pin against
                row = got.setdefault(("register", model_type), {"register": model_type, "file": path, "line": line,
                                                                "removed": first, "entries": []})
                if entry not in row["entries"]:
                    row["entries"].append(entry)
        for path, line, attr in tokenizer_reads(tree):
            gone = _first_missing([defines(w, attr) for w in wheels], tversions)
            if gone is not None:
                got.setdefault(("attribute", attr), {"attribute": f"tokenizer.{attr}", "file": path, "line": line,
                                                     "removed": gone, "entries": list(ENTRIES)})
        if got:
            rows[version] = sorted(got.values(), key=lambda r: (r["file"], r["line"], r.get("import", "")))
        archs = arch_modules(vsrc / version)
        for path, names in archs.items():
            for f, line, mod, name in tf_imports(tree, [p for p in model_files(tree, path) if p not in started]):
                gone = removed(mod, name)
                if gone is None or not tree.confirmed(f, line):
                    continue
                key = (f"{mod}.{name}" if name else mod, gone, tuple(sorted(set(names))))
                row = per_model.setdefault(key, {"import": key[0], "removed": gone, "file": f, "line": line,
                                                 "first": version, "releases": [], "architectures": list(key[2])})
                if version not in row["releases"]:
                    row["releases"].append(version)
    models = []
    for row in sorted(per_model.values(), key=lambda r: (r["architectures"][0], r["import"], vkey(r["first"]))):
        models.append({"import": row["import"], "removed": row["removed"], "file": row["file"], "line": row["line"],
                       "at": row["first"], "vllm": _spans(row.pop("releases"), vversions),
                       "architectures": row["architectures"]})
    return {"version": 1, "transformers_scanned": tversions, "imports_read_below": IMPORTS_READ_BELOW,
            "vllm_releases": vversions, "imports": rows, "models": models}


HEADER = """\
# The `from transformers… import X` statements each vLLM release runs at start (`entries`: serve —
# vllm/entrypoints/openai/api_server.py and what it imports at module level —, offline —
# vllm/entrypoints/llm.py), and the transformers release from which X is gone (`removed`): a
# transformers at or past it makes importing vLLM fail with "cannot import name 'X' from
# 'transformers…'". `attribute` rows: what vLLM reads from the tokenizer it loads while the engine
# starts (get_cached_tokenizer), gone from every tokenizer class of `removed` on ("AttributeError:
# <Tokenizer> has no attribute X"). `file`/`line` are in the vLLM release. Releases without such an
# import are not listed. GENERATED by tools/vllm_transformers_imports.py from vLLM's sdists and the transformers
# wheels (`transformers_scanned`: the last patch of each minor release; imports are read in those
# below `imports_read_below`, whose import hook for legacy paths a static read cannot follow) — do
# not edit by hand.
"""


def render(data: dict, header: str = HEADER) -> str:
    return header + yaml.safe_dump(data, sort_keys=False, width=140, default_flow_style=None)


def run(doc: str, build_table, render_table, out: Path, argv=None) -> int:
    """The command line of the transformers tables: the wheels folder, vLLM's sources, -o and --check."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--wheels", type=Path, required=True, help="folder of transformers wheels")
    ap.add_argument("--vllm-src", type=Path, default=Path("/work/sdists/src"))
    ap.add_argument("-o", "--out", type=Path, default=out)
    ap.add_argument("--check", action="store_true", help="fail when the table differs from what the sources give")
    args = ap.parse_args(argv)
    text = render_table(build_table(args.wheels, args.vllm_src))
    if args.check:
        same = args.out.is_file() and args.out.read_text("utf-8") == text
        print("up to date" if same else f"{args.out} is stale")
        return 0 if same else 1
    args.out.write_text(text, encoding="utf-8")
    print(f"→ {args.out}")
    return 0


def main(argv=None) -> int:
    return run(__doc__, build, render, OUT, argv)


if __name__ == "__main__":
    sys.exit(main())
