#!/usr/bin/env python3
"""Build knowledge/vllm/architectures.yaml: which model architectures (config.json "architectures")
each vLLM release registers, and which it names as removed. Read with ast from the unpacked
releases (DIR/<version>/vllm/model_executor/models/registry.py, or models/__init__.py before
0.6.3): the keys of every module-level `_*_MODELS` dict literal are the registered architectures,
except `_PREVIOUSLY_SUPPORTED_MODELS` (removed, with the last release that had them: vLLM raises
"was supported in vLLM until …"), `_OOT_SUPPORTED_MODELS` (moved to a plugin) and the ROCm
lists. Spans run over the scanned releases only; a release between two scanned ones that differ
is unknown (engine/check/startup_arch.py).

Usage:
  python tools/vllm_architectures.py --source /work/sdists/src [--source more/] -o knowledge/vllm/architectures.yaml
"""
from __future__ import annotations

import argparse
import ast
import re
from pathlib import Path

VERSION_DIR = re.compile(r"\d+(\.\d+)+$")
NOT_REGISTERED = ("_PREVIOUSLY_SUPPORTED_MODELS", "_OOT_SUPPORTED_MODELS", "_ROCM_UNSUPPORTED_MODELS",
                  "_ROCM_PARTIALLY_SUPPORTED_MODELS", "_ROCM_SWA_REASON")


def vkey(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


def registry_file(root: Path) -> Path | None:
    for rel in ("vllm/model_executor/models/registry.py", "vllm/model_executor/models/__init__.py"):
        if (root / rel).exists():
            return root / rel
    return None


def scan(path: Path) -> tuple[set[str], dict[str, str], set[str]]:
    """(registered, removed {arch: last release}, moved to a plugin) of one release."""
    registered: set[str] = set()
    removed: dict[str, str] = {}
    oot: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name, value = node.targets[0].id, node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            name, value = node.target.id, node.value
        else:
            continue
        if not (name.endswith("_MODELS") and isinstance(value, ast.Dict)):
            continue
        keys = [k.value for k in value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        if name == "_PREVIOUSLY_SUPPORTED_MODELS":
            for k, v in zip(value.keys, value.values):
                if isinstance(k, ast.Constant) and isinstance(v, ast.Constant):
                    removed[k.value] = str(v.value)
        elif name == "_OOT_SUPPORTED_MODELS":
            oot.update(keys)
        elif not name.startswith("_ROCM"):
            registered.update(keys)
    return registered, removed, oot


def spans(present: list[bool], releases: list[str]) -> list[list[str]]:
    out: list[list[str]] = []
    start = None
    for i, on in enumerate(present + [False]):
        if on and start is None:
            start = i
        elif not on and start is not None:
            out.append([releases[start], releases[i - 1]])
            start = None
    return out


def build(sources: list[Path]) -> dict:
    found = {d.name: d for source in sources for d in source.iterdir() if VERSION_DIR.fullmatch(d.name) and registry_file(d)}
    dirs = sorted(found.values(), key=lambda d: vkey(d.name))
    releases = [d.name for d in dirs]
    per = [scan(registry_file(d)) for d in dirs]
    names = sorted(set().union(*(r for r, _, _ in per)))
    arch = {n: spans([n in r for r, _, _ in per], releases) for n in names}
    removed: dict[str, dict] = {}
    for n in sorted(set().union(*(set(rm) for _, rm, _ in per))):
        listed = [n in rm for _, rm, _ in per]
        until = next(rm[n] for _, rm, _ in reversed(per) if n in rm)
        removed[n] = {"until": until, "listed": spans(listed, releases)}
    plugin = {n: spans([n in o for _, _, o in per], releases) for n in sorted(set().union(*(o for _, _, o in per)))}
    return {"releases": releases, "registered": arch, "removed": removed, "plugin": plugin}


def dump(data: dict) -> str:
    """Compact YAML, one architecture a line."""
    def sp(s: list[list[str]]) -> str:
        return "[" + ", ".join(f'["{a}", "{b}"]' for a, b in s) + "]"
    lines = [
        "# Which model architectures (config.json \"architectures\") each vLLM release registers, built by",
        "# tools/vllm_architectures.py from the releases' model registry (vllm/model_executor/models/",
        "# registry.py; models/__init__.py before 0.6.3). Do not edit by hand.",
        "#   registered: architecture → spans of scanned releases that register it",
        "#   removed:    architecture → the last release that had it (vLLM raises \"Model architecture X was",
        "#               supported in vLLM until vU, and is not supported anymore\") and the releases that say so",
        "#   plugin:     architectures moved out of tree to a plugin, and the releases that say so",
        "# A release between two scanned ones is known only where both agree.",
        "version: 1",
        "releases: [" + ", ".join(f'"{r}"' for r in data["releases"]) + "]",
        "registered:",
    ]
    lines += [f"  {n}: {sp(s)}" for n, s in data["registered"].items()]
    lines.append("removed:")
    lines += [f'  {n}: {{until: "{e["until"]}", listed: {sp(e["listed"])}}}' for n, e in data["removed"].items()]
    lines.append("plugin:")
    lines += [f"  {n}: {sp(s)}" for n, s in data["plugin"].items()]
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source", type=Path, required=True, action="append", help="a folder of unpacked releases (repeatable)")
    ap.add_argument("-o", "--output", type=Path, required=True)
    a = ap.parse_args()
    a.output.write_text(dump(build(a.source)), encoding="utf-8")


if __name__ == "__main__":
    main()
