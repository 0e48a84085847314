#!/usr/bin/env python3
"""Add to knowledge/frameworks/vllm_imports.yaml the `from vllm… import X` statements Triton's vLLM
backend (triton-inference-server/vllm_backend) runs when Triton loads it, per Triton release: the
`rYY.MM` branch each `nvcr.io/nvidia/tritonserver:YY.MM-vllm-python-py3` image is built from. The
backend's model.py and the modules it imports from its own `utils/` package are read with `ast`
from the branch (never imported), the unguarded module-level vLLM imports kept (as for a framework
wheel: engine/scan/framework_source.py), and each resolved against vLLM's sources of every release
read. Consecutive Triton releases that make the same failing imports share one row (framework
`triton`, entry `backend`); a release newer than the newest branch read has no row.

Usage: python tools/triton_vllm_imports.py --repo /work/.mirror/triton-inference-server+vllm_backend/repo
       [--vllm-src /work/sdists/src] [-o knowledge/frameworks/vllm_imports.yaml]
"""
from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from framework_vllm_imports import HEADER, _runs, resolves  # noqa: E402

from vllm_kb.engine.scan.framework_source import loaded, vllm_imports  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BRANCH = re.compile(r"^r(\d\d\.\d\d)$")


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", str(repo), *args], capture_output=True, text=True, check=True).stdout


def branch_trees(repo: Path, branch: str) -> dict[str, ast.AST]:
    """The backend's Python files of a branch, keyed as Triton loads them (src/ is the model's folder)."""
    trees = {}
    for path in _git(repo, "ls-tree", "-r", "--name-only", branch).split():
        if path.startswith("src/") and path.endswith(".py"):
            try:
                trees[path[4:]] = ast.parse(_git(repo, "show", f"{branch}:{path}"))
            except SyntaxError:
                continue
    return trees


def build(repo: Path, vsrc: Path, versions: list[str]) -> list[dict]:
    releases = sorted((m.group(1) for b in _git(repo, "branch", "--format=%(refname:short)").split() if (m := BRANCH.match(b))),
                      key=lambda r: tuple(int(x) for x in r.split(".")))
    runs: list[tuple[list[str], list[dict]]] = []
    for rel in releases:
        trees = branch_trees(repo, f"r{rel}")
        got = {}
        for path, line, mod, name in vllm_imports(trees, loaded(trees, "model.py")):
            ok = [resolves(str(vsrc / v), mod, name) for v in versions]
            if all(ok) or not any(ok):
                continue
            key = f"{mod}.{name}" if name else mod
            got.setdefault(key, {"entry": "backend", "import": key, "file": f"src/{path}", "line": line, "vllm": _runs(ok, versions)})
        imps = sorted(got.values(), key=lambda r: (r["file"], r["line"], r["import"]))
        sig = [(r["import"], r["file"], r["vllm"]) for r in imps]
        if runs and [(r["import"], r["file"], r["vllm"]) for r in runs[-1][1]] == sig:
            runs[-1][0].append(rel)
        else:
            runs.append(([rel], imps))
    rows = []
    for rels, imps in runs:
        if imps:
            spec = f"=={rels[0]}" if len(rels) == 1 else f">={rels[0]},<={rels[-1]}"
            rows.append({"framework": "triton", "releases": spec, "source": f"vllm-backend==r{rels[0]}", "imports": imps})
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repo", type=Path, required=True, help="a git directory of triton-inference-server/vllm_backend")
    ap.add_argument("--vllm-src", type=Path, default=Path("/work/sdists/src"))
    ap.add_argument("-o", "--out", type=Path, default=ROOT / "knowledge" / "frameworks" / "vllm_imports.yaml")
    args = ap.parse_args(argv)
    data = yaml.safe_load(args.out.read_text("utf-8")) or {}
    versions = [str(v) for v in data.get("vllm_releases") or []]
    data["rows"] = [r for r in data.get("rows") or [] if r["framework"] != "triton"] + build(args.repo, args.vllm_src, versions)
    args.out.write_text(HEADER + yaml.safe_dump(data, sort_keys=False, width=140, default_flow_style=None), encoding="utf-8")
    print(f"{sum(r['framework'] == 'triton' for r in data['rows'])} triton rows → {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
