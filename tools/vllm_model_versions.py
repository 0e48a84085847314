#!/usr/bin/env python3
"""Build knowledge/vllm/model_versions.yaml: for the model classes that dispatch on a version field
of the checkpoint's config.json, which versions each vLLM release implements.

Such a class is registered once (MiniCPMV, MiniCPMO) and picks the implementation in `__new__` from
a module-level table keyed by (major, minor):
  _SUPPORT_VERSION = {(2, 0): MiniCPMV2_0, (2, 5): MiniCPMV2_5, ...}
  instance_cls = _SUPPORT_VERSION.get(version)
  if instance_cls is None:
      raise ValueError("Currently, MiniCPMV only supports versions ...")
A version outside the table stops the launch while the model is built on the workers. The tool reads
each release's registry (architecture → module, class), finds the registered classes with a `__new__`
that reads a module-level dict whose keys are all tuples of ints, and records the keys and the line of
the raise after it. Nothing is listed by hand: a release whose class does not dispatch that way (MiniCPMO
before 0.16.0, a 2.6 subclass) simply has no row, and the audit then says nothing.

Usage:
  python tools/vllm_model_versions.py --source /work/sdists/src -o knowledge/vllm/model_versions.yaml
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vllm_architectures import registry_entries, registry_file, release_rows, sp, spans, table_main, vkey  # noqa: E402


def _version_tables(tree: ast.Module) -> dict[str, list[str]]:
    """Module-level dicts whose keys are all (int, int, …) tuples: name → ["2.0", "2.5", …]."""
    out = {}
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else (
            node.target if isinstance(node, ast.AnnAssign) else None)
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        if not isinstance(target, ast.Name) or not isinstance(value, ast.Dict) or not value.keys:
            continue
        keys = []
        for k in value.keys:
            if not (isinstance(k, ast.Tuple) and k.elts and all(isinstance(e, ast.Constant) and type(e.value) is int for e in k.elts)):
                break
            keys.append(".".join(str(e.value) for e in k.elts))
        else:
            out[target.id] = keys
    return out


def _dispatch(node: ast.ClassDef, tables: dict[str, list[str]]) -> tuple[str, int | None] | None:
    """(table name, line of its last raise: the one for a version outside the table) when the class's `__new__` reads one of `tables`."""
    new = next((f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "__new__"), None)
    if new is None:
        return None
    names = [n.id for n in ast.walk(new) if isinstance(n, ast.Name) and n.id in tables]
    if not names:
        return None
    raises = sorted(n.lineno for n in ast.walk(new) if isinstance(n, ast.Raise))
    return names[0], (raises[-1] if raises else None)


def scan(root: Path) -> dict[str, dict]:
    """architecture → {versions, file, line} of one release."""
    reg = registry_file(root)
    if reg is None:
        return {}
    out: dict[str, dict] = {}
    models = root / "vllm/model_executor/models"
    for arch, module, cls in registry_entries(reg):
        f = models / (module.replace(".", "/") + ".py")
        if not f.exists():
            continue
        tree = ast.parse(f.read_text(encoding="utf-8"))
        tables = _version_tables(tree)
        node = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls), None)
        got = _dispatch(node, tables) if node is not None and tables else None
        if got:
            out[arch] = {"versions": tables[got[0]], "file": str(f.relative_to(root)), "line": got[1]}
    return out


def build(sources: list[Path]) -> dict:
    releases, rows = release_rows(sources, scan)
    archs = sorted({a for _, s in rows for a in s})
    table: dict[str, dict] = {}
    for a in archs:
        versions = sorted({x for _, s in rows for x in (s.get(a) or {}).get("versions", [])}, key=vkey)
        table[a] = {
            "dispatch": spans([a in s for _, s in rows], releases),
            "versions": {x: spans([x in (s.get(a) or {}).get("versions", []) for _, s in rows], releases) for x in versions},
            "source": [{"release": v, "file": s[a]["file"], "line": s[a]["line"]} for v, s in rows
                       if a in s and (v == releases[-1] or s[a]["versions"] != _prev(rows, v, a))],
        }
    return {"releases": releases, "architectures": table}


def _prev(rows: list, v: str, a: str) -> list[str] | None:
    i = next(i for i, (r, _) in enumerate(rows) if r == v)
    return (rows[i - 1][1].get(a) or {}).get("versions") if i else None


def dump(data: dict) -> str:
    lines = [
        "# Which versions of a model family (config.json \"version\") each vLLM release implements, for the",
        "# registered classes that dispatch on it in __new__ and raise for any other (\"Currently, MiniCPMV only",
        "# supports versions …\"). Built by tools/vllm_model_versions.py from every release. Do not edit by hand.",
        "#   dispatch: spans of scanned releases whose class dispatches on the table (outside them: unknown)",
        "#   versions: version → spans of scanned releases that implement it",
        "#   source:   the raise, in the first release of each table and in the last scanned one",
        "version: 1",
        "releases: [" + ", ".join(f'"{r}"' for r in data["releases"]) + "]",
        "architectures:" + ("" if data["architectures"] else " {}"),
    ]
    for a, row in data["architectures"].items():
        lines.append(f"  {a}:")
        lines.append(f"    dispatch: {sp(row['dispatch'])}")
        lines.append("    versions:")
        lines += [f'      "{x}": {sp(s)}' for x, s in row["versions"].items()]
        lines.append("    source:")
        lines += [f'      - {{release: "{s["release"]}", file: {s["file"]}, line: {s["line"]}}}' for s in row["source"]]
    return "\n".join(lines) + "\n"


def main() -> None:
    table_main(__doc__, build, dump)

if __name__ == "__main__":
    main()
