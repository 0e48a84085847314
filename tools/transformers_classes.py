"""Writes knowledge/vllm/transformers_classes.yaml: the model classes transformers' Auto mappings name
(MODEL_*_MAPPING_NAMES in transformers/models/auto/modeling_auto.py), read with ast from the wheels
given, never imported.

vLLM's Transformers fallback (0.7.2+) first asks `getattr(transformers, <architecture>)`
(vllm/model_executor/model_loader/utils.py, later models/registry.py _try_resolve_transformers);
only when transformers has no class of that name does it look at the checkpoint's auto_map. An
architecture outside every listed class cannot be found by name in those releases of transformers
(vLLM 0.7.2 requires transformers>=4.48, so a 4.5x wheel and the newest cover the releases it runs):

    python tools/transformers_classes.py WHEEL [WHEEL ...]
    python tools/transformers_classes.py --check WHEEL [WHEEL ...]
"""
from __future__ import annotations

import argparse
import ast
import re
import sys
import zipfile
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "knowledge" / "vllm" / "transformers_classes.yaml"
_WHEEL = re.compile(r"transformers-(\d+\.\d+\.\d+)-py3-none-any\.whl$")
_MAPPING = re.compile(r"^MODEL_\w*MAPPING_NAMES$")


def _names(node: ast.AST) -> list[str]:
    """The class names (string values, or strings in tuple values) of an OrderedDict([(k, v), …]) or dict."""
    out: list[str] = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Tuple) and len(sub.elts) == 2 and isinstance(sub.elts[0], ast.Constant):
            val = sub.elts[1]
            vals = val.elts if isinstance(val, (ast.Tuple, ast.List)) else [val]
            out += [v.value for v in vals if isinstance(v, ast.Constant) and isinstance(v.value, str)]
        elif isinstance(sub, ast.Dict):
            for val in sub.values:
                vals = val.elts if isinstance(val, (ast.Tuple, ast.List)) else [val]
                out += [v.value for v in vals if isinstance(v, ast.Constant) and isinstance(v.value, str)]
    return out


def classes(source: str) -> set[str]:
    tree = ast.parse(source)
    out: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and _MAPPING.match(t.id) for t in node.targets):
            out |= set(_names(node.value))
    return {c for c in out if re.fullmatch(r"[A-Z]\w*", c)}


def read(wheels: list[Path]) -> tuple[list[str], set[str]]:
    versions, found = [], set()
    for w in wheels:
        m = _WHEEL.search(w.name)
        if not m:
            raise SystemExit(f"not a transformers wheel: {w}")
        with zipfile.ZipFile(w) as z:
            found |= classes(z.read("transformers/models/auto/modeling_auto.py").decode("utf-8"))
        versions.append(m.group(1))
    return sorted(versions, key=lambda v: tuple(int(x) for x in v.split("."))), found


def render(versions: list[str], found: set[str]) -> str:
    lines = ["# The model classes transformers' Auto mappings name (MODEL_*_MAPPING_NAMES in",
             "# transformers/models/auto/modeling_auto.py) in the wheels scanned, read with ast by",
             "# tools/transformers_classes.py. vLLM's Transformers fallback looks an architecture up by this",
             "# name first (getattr(transformers, arch)). Do not edit by hand.",
             "version: 1",
             f"transformers_scanned: [{', '.join(repr(v) for v in versions)}]",
             "classes:"]
    lines += [f"  - {c}" for c in sorted(found)]
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("wheels", nargs="+", type=Path)
    ap.add_argument("--check", action="store_true", help="fail when the committed table differs")
    args = ap.parse_args()
    versions, found = read(args.wheels)
    text = render(versions, found)
    stale = not OUT.is_file() or OUT.read_text(encoding="utf-8") != text
    if not args.check:
        OUT.write_text(text, encoding="utf-8")
    print(f"{OUT}: {len(found)} classes from transformers {', '.join(versions)}"
          + (" (stale: run tools/transformers_classes.py)" if args.check and stale else " up to date" if args.check else " written"))
    return int(args.check and stale)


if __name__ == "__main__":
    sys.exit(main())
