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

import sys
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parent))
from vllm_catalog import vkey  # noqa: E402
from vllm_transformers_imports import ENTRIES, _Tree, _spans, admitted, arch_modules, loaded, render, run, sources, tf_imports  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "knowledge" / "vllm" / "transformers_since.yaml"
FIRST_VLLM = "0.4.0"


def build(wheel_dir: Path, vsrc: Path) -> dict:
    tversions, wheels, vversions = sources(wheel_dir, vsrc, FIRST_VLLM)
    cache: dict[tuple[str, str | None], list[bool]] = {}

    def presence(mod: str, name: str | None) -> list[bool]:
        if (mod, name) not in cache:
            cache[(mod, name)] = [w.resolves(mod, name, exact=True) for w in wheels]
        return cache[(mod, name)]

    admits = admitted(tversions)
    rows: dict[tuple, dict] = {}
    for version in vversions:
        allowed = admits(version)
        tree = _Tree(vsrc / version)
        started: set[str] = set()
        for root in ENTRIES.values():
            if root in tree:
                started.update(loaded(tree, root))
        archs = arch_modules(vsrc / version)
        for path, names in archs.items():
            if path not in tree:
                continue
            files = loaded(tree, path, started)
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
                                            "has": _spans([v for v, o in zip(tversions, ok) if o], tversions), "architectures": list(key[1]),
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


def main(argv=None) -> int:
    return run(__doc__, build, lambda data: render(data, HEADER), OUT, argv)


if __name__ == "__main__":
    sys.exit(main())
