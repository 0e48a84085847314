#!/usr/bin/env python3
"""Build knowledge/vllm/transformers_since.yaml: per vLLM release and architecture, the names the
model's own vLLM modules import from transformers that some transformers release does not have
YET — the other side of tools/vllm_transformers_imports.py (names a later transformers removed).

vLLM's registry imports an architecture's module (vllm/model_executor/models/<module>.py, and the
vLLM modules it imports at module level that `vllm serve` / `from vllm import LLM` had not imported
already: its processors, its config classes, the model modules it builds on) while it inspects the
architecture at start-up; an unguarded `from transformers… import X` there, against a transformers
that has no X yet, fails with "ImportError: cannot import name 'X' from 'transformers…'" and vLLM
stops with "Model architectures ['…'] failed to be inspected". A model's support is often written
against transformers' main branch: vLLM 0.7.2's qwen2_5_vl.py imports Qwen2_5_VLImageProcessor,
which transformers 4.49.0 (the first release with Qwen2.5-VL) shipped without; 0.7.3 stopped
importing it.

Presence is read from each transformers wheel with tools/transformers_wheel.py's reading, except that
a star import under a lazy package's TYPE_CHECKING branch is not taken as "binds every name" (that
would hide every new name); a lazy package binds what its `__init__` spells as a string or any module
below it binds at top level — generous, so that absence is certain. Each row keeps the transformers
releases that have the name (`has`: spans over `transformers_scanned`, both the X.Y.0 and the last
patch of each minor where the folder holds them); only names some scanned release lacks *before* it
has them (or that no scanned release has) are listed — the side names are gone from is
transformers_imports.yaml's.

Usage: python tools/vllm_transformers_since.py --wheels DIR [--vllm-src /work/sdists/src]
       [-o knowledge/vllm/transformers_since.yaml] [--check]
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import yaml
from packaging.specifiers import SpecifierSet

sys.path.insert(0, str(Path(__file__).resolve().parent))
from transformers_wheel import Wheel  # noqa: E402
from vllm_architectures import registry_entries, registry_file  # noqa: E402
from vllm_catalog import vkey  # noqa: E402
from vllm_transformers_imports import ENTRIES, _MODELS, _Tree, _spans, loaded, tf_imports  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
REQUIRES = ROOT / "knowledge" / "vllm" / "model_types.yaml"  # vllm_requires: each release's transformers range
OUT = ROOT / "knowledge" / "vllm" / "transformers_since.yaml"
_WHEEL = re.compile(r"transformers-(\d+\.\d+\.\d+)-py3-none-any\.whl$")
FIRST_VLLM = "0.4.0"


def has(w: Wheel, mod: str, name: str | None) -> bool:
    """Whether `from mod import name` resolves in the wheel (generous: absence is certain)."""
    parts = mod.split(".")
    for i in range(1, len(parts)):
        if w.module(".".join(parts[:i])) is None:
            return False
    path = w.module(mod)
    if path is None:
        return False
    if name is None or w.module(f"{mod}.{name}") is not None:
        return True
    names, star = w.names(path)
    text = w.text(path)
    lazy = path.endswith("__init__.py") and "_LazyModule" in text
    if name in names or "__getattr__" in names or (star and not lazy):
        return True
    if lazy:
        # the package itself lists every public name as a string (_import_structure); a model
        # package's may come from define_import_structure, read from the modules below it
        if re.search(r"[\"']%s[\"']" % re.escape(name), text) is not None:
            return True
        if path == "transformers/__init__.py":
            # from 4.52 the package also serves every name its models' modules export
            # (define_import_structure over models/): read those only where it does
            return "define_import_structure(Path(__file__).parent / \"models\"" in text \
                and name in w.below("transformers/models")
        return name in w.below(path.rsplit("/", 1)[0])
    return False


def _has_spans(ok: list[bool], versions: list[str]) -> list[list[str]]:
    out: list[list[str]] = []
    for i, v in enumerate(versions):
        if not ok[i]:
            continue
        if out and i > 0 and ok[i - 1]:
            out[-1][1] = v
        else:
            out.append([v, v])
    return out


def _beyond(tree: _Tree, path: str, started: set[str]) -> list[str]:
    """The vLLM files importing `path` runs that start-up had not run already (what start-up ran, it
    ran with everything it imports: the walk stops there) — `loaded` without re-walking the engine."""
    seen: set[str] = set()
    order, todo = [], [path]
    while todo:
        p = todo.pop()
        if p in seen or p in started or p not in tree:
            continue
        seen.add(p)
        order.append(p)
        parts = p[:-3].split("/")
        if parts[-1] == "__init__":
            parts = parts[:-1]
        targets = [".".join(parts[:i]) for i in range(1, len(parts))]
        for _, mod, name in tree.imports(p):
            if mod.split(".")[0] == "vllm":
                targets += [mod] + ([f"{mod}.{name}"] if name else [])
        for mod in targets:
            for cand in (mod.replace(".", "/") + ".py", mod.replace(".", "/") + "/__init__.py"):
                if cand in tree and cand not in seen:
                    todo.append(cand)
                    break
    return order


def build(wheel_dir: Path, vsrc: Path) -> dict:
    found = {m.group(1): p for p in wheel_dir.iterdir() if (m := _WHEEL.search(p.name))}
    tversions = sorted(found, key=vkey)
    wheels = [Wheel(found[v]) for v in tversions]
    vversions = [v for v in sorted((p.name for p in vsrc.iterdir() if (p / "vllm").is_dir()), key=vkey)
                 if re.fullmatch(r"[\d.]+(?:\.post\d+)?", v) and vkey(v) >= vkey(FIRST_VLLM)]
    cache: dict[tuple[str, str | None], list[bool]] = {}

    def presence(mod: str, name: str | None) -> list[bool]:
        if (mod, name) not in cache:
            cache[(mod, name)] = [has(w, mod, name) for w in wheels]
        return cache[(mod, name)]

    requires = yaml.safe_load(REQUIRES.read_text("utf-8")).get("vllm_requires") or {}
    rows: dict[tuple, dict] = {}
    for version in vversions:
        own = requires.get(version) or requires.get(version.split(".post")[0])
        allowed = [i for i, v in enumerate(tversions) if own is None or SpecifierSet(own).contains(v)]
        tree = _Tree(vsrc / version)
        started: set[str] = set()
        for root in ENTRIES.values():
            if root in tree:
                started.update(loaded(tree, root))
        reg = registry_file(vsrc / version)
        archs: dict[str, list[str]] = {}
        for arch, module, _ in registry_entries(reg) if reg else []:
            if module:
                archs.setdefault(_MODELS + module + ".py", []).append(arch)
        for path, names in archs.items():
            if path not in tree:
                continue
            files = _beyond(tree, path, started)
            for f, line, mod, name in tf_imports(tree, files):
                ok = presence(mod, name)
                if all(ok):
                    continue
                first = ok.index(True) if any(ok) else len(ok)
                if first == 0 or (allowed and first <= allowed[0]):
                    # present from the first release scanned (or vLLM's own requirement admits): only
                    # a release that removed it lacks it, transformers_imports.yaml's side
                    continue
                if not tree.confirmed(f, line):
                    continue
                what = f"{mod}.{name}" if name else mod
                key = (what, tuple(sorted(set(names))), f)
                row = rows.setdefault(key, {"import": what, "module": mod, "name": name, "file": f, "line": line,
                                            "has": _has_spans(ok, tversions), "architectures": list(key[1]),
                                            "releases": []})
                row["line"] = line  # the newest release's line
                row["releases"].append(version)
    out = []
    for row in sorted(rows.values(), key=lambda r: (r["architectures"][0], r["import"], vkey(r["releases"][0]))):
        rel = row.pop("releases")
        out.append({"import": row["import"], "module": row["module"], "name": row["name"], "has": row["has"],
                    "file": row["file"], "line": row["line"], "at": rel[-1], "vllm": _spans(rel, vversions),
                    "architectures": row["architectures"]})
    return {"version": 1, "transformers_scanned": tversions, "vllm_releases": vversions, "models": out}


HEADER = """\
# Per vLLM release and architecture, the `from transformers… import X` statements the model's own
# vLLM modules run when the registry inspects the architecture at start-up (module level, nothing
# guarding them: the model module and the vLLM modules it imports that start-up had not), whose X
# some scanned transformers release does not have yet. `has`: the transformers releases that have
# X (spans over `transformers_scanned`; [] — none does: only transformers from source). A
# transformers release outside `has` makes start-up fail with "cannot import name 'X' from
# 'transformers…'" and "Model architectures [...] failed to be inspected". `file`/`line`: in
# vLLM `at` (the newest release of the row). GENERATED by tools/vllm_transformers_since.py from
# vLLM's sdists/wheels and the transformers wheels — do not edit by hand.
"""


def render(data: dict) -> str:
    return HEADER + yaml.safe_dump(data, sort_keys=False, width=140, default_flow_style=None)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--wheels", type=Path, required=True, help="folder of transformers wheels")
    ap.add_argument("--vllm-src", type=Path, default=Path("/work/sdists/src"))
    ap.add_argument("-o", "--out", type=Path, default=OUT)
    ap.add_argument("--check", action="store_true", help="fail when the table differs from what the sources give")
    args = ap.parse_args(argv)
    text = render(build(args.wheels, args.vllm_src))
    if args.check:
        same = args.out.is_file() and args.out.read_text("utf-8") == text
        print("up to date" if same else f"{args.out} is stale")
        return 0 if same else 1
    args.out.write_text(text, encoding="utf-8")
    print(f"→ {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
