"""Do two vllm-kb executables write the same reports, byte for byte?

A speed change must not change a single byte of what the audit says. This runs both executables
on the same trees — vLLM's source tree (--vllm-tree, e.g. the 0.34.0 sdist unpacked), every
tests/realcases project (with its case's GPU), examples/ and the test fixtures — in JSON (and, for
the small trees, Markdown and Chinese JSON too) and lists every report that differs.

    python benchmarks/same_reports.py BEFORE/bin/vllm-kb [AFTER/bin/vllm-kb] [--vllm-tree DIR] [--keep DIR] [-j 2]

AFTER defaults to the vllm-kb beside this Python. Exit status 1 when any report differs (or one
side fails where the other does not). It compares, it does not time: run benchmarks/run.py for that.
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
GPU = "H100-80GB x8"


def jobs(vllm_tree: Path | None) -> list[tuple[str, Path, str, list[str]]]:
    """(name, tree, gpu, extra flags) of every report to compare."""
    out: list[tuple[str, Path, str, list[str]]] = []
    if vllm_tree is not None:
        out.append(("vllm-tree.json", vllm_tree, GPU, ["--format", "json"]))
    for case in sorted((ROOT / "tests" / "realcases").iterdir()):
        meta = case / "case.yaml"
        if not meta.is_file():
            continue
        gpu = str(yaml.safe_load(meta.read_text(encoding="utf-8")).get("gpu") or GPU)
        out.append((f"realcases-{case.name}.json", case, gpu, ["--format", "json", "--exclude", "case.yaml"]))
    small = [p for p in sorted((ROOT / "examples").iterdir()) if p.is_dir()]
    fixtures = ROOT / "tests" / "fixtures"
    if fixtures.is_dir():
        small += [p for p in sorted(fixtures.iterdir()) if p.is_dir()]
    for tree in small:
        stem = f"{tree.parent.name}-{tree.name}"
        out.append((f"{stem}.json", tree, GPU, ["--format", "json"]))
        out.append((f"{stem}.zh.json", tree, GPU, ["--format", "json", "--lang", "zh"]))
        out.append((f"{stem}.md", tree, GPU, ["--format", "markdown"]))
    return out


def run_one(exe: str, tree: Path, gpu: str, flags: list[str], dest: Path) -> int:
    argv = [exe, "audit", str(tree), "--gpu", gpu, *flags, "-o", str(dest), "--quiet", "--exit-zero"]
    return subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after", nargs="?", default=str(Path(sys.executable).with_name("vllm-kb")))
    ap.add_argument("--vllm-tree", help="vLLM's unpacked source tree (left out when not given)")
    ap.add_argument("--keep", help="write the reports here and keep them")
    ap.add_argument("-j", type=int, default=2, help="reports made at once")
    a = ap.parse_args(argv)
    work = Path(a.keep) if a.keep else Path(tempfile.mkdtemp(prefix="vllm-kb-same-"))
    todo = jobs(Path(a.vllm_tree) if a.vllm_tree else None)
    for side in ("before", "after"):
        (work / side).mkdir(parents=True, exist_ok=True)

    def both(job: tuple[str, Path, str, list[str]]) -> str | None:
        name, tree, gpu, flags = job
        rc = [run_one(exe, tree, gpu, flags, work / side / name) for side, exe in (("before", a.before), ("after", a.after))]
        b, f = work / "before" / name, work / "after" / name
        if rc[0] != rc[1]:
            return f"{name}: exit {rc[0]} before, {rc[1]} after"
        if b.exists() != f.exists() or (b.exists() and b.read_bytes() != f.read_bytes()):
            return f"{name}: differs"
        return None

    try:
        with ThreadPoolExecutor(max(1, a.j)) as pool:
            bad = [m for m in pool.map(both, todo) if m]
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
    for m in bad:
        print(m)
    print(f"{len(todo) - len(bad)} of {len(todo)} reports identical")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
