"""Do two vllm-kb executables write the same reports, byte for byte?

A speed change must not change a single byte of what the audit says. This runs both executables
on the same trees — vLLM's source tree (--vllm-tree, e.g. the 0.34.0 sdist unpacked), every
tests/realcases project (with its case's GPU), every tests/realworld shape's project, examples/ and
the test fixtures — in JSON (and, for the small trees, Markdown and Chinese JSON too) and lists
every report that differs.

    python benchmarks/same_reports.py BEFORE/bin/vllm-kb [AFTER/bin/vllm-kb] [--vllm-tree DIR] [--keep DIR] [-j 2] [--one-process] [--expand]

AFTER defaults to the vllm-kb beside this Python. Exit status 1 when any report differs (or one
side fails where the other does not). It compares, it does not time: run benchmarks/run.py for that.

--one-process makes each side's reports in one Python process (the `python` beside its vllm-kb),
one audit after the other, the two sides at once: minutes instead of an hour on a loaded machine
(a fresh interpreter per report is most of the work for the small trees). The audits then share
the process's memos, as they do in the MCP server; a report that differs only this way points at
state carried from one audit to the next.

--expand compares a JSON report of a later schema_version (AFTER) with one of schema_version 1
(BEFORE) through the reader that rebuilds the per-site view of version 1 (engine/report/catalogue.py
`expand`): the same bytes once read back, i.e. only the format changed, never a verdict.
"""
from __future__ import annotations

import argparse
import json
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
    for shape in sorted((ROOT / "tests" / "realworld").glob("*/project")):  # the real-world shapes' projects
        out.append((f"realworld-{shape.parent.name}.json", shape, GPU, ["--format", "json"]))
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
    return subprocess.run(argv, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode


# Run by the `python` beside a side's vllm-kb: every job's audit in this one process, each exit status printed.
_ONE_PROCESS = """
import contextlib, io, json, sys
from vllm_kb.cli import main as m
for name, argv in json.load(sys.stdin):
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            rc = m._main(argv, argv)
        except SystemExit as e:
            rc = e.code if isinstance(e.code, int) else 1
        except Exception:
            rc = -1
    print(json.dumps([name, rc]), flush=True)
"""


def run_all(exe: str, todo: list[tuple[str, Path, str, list[str]]], dest: Path) -> dict[str, int]:
    """Every job's report made by one process of `exe`'s Python: {name: exit status} (-2: not run)."""
    python = str(Path(exe).with_name("python"))
    argvs = [(name, ["audit", str(tree), "--gpu", gpu, *flags, "-o", str(dest / name), "--quiet", "--exit-zero"])
             for name, tree, gpu, flags in todo]
    got = subprocess.run([python, "-c", _ONE_PROCESS], check=False, input=json.dumps(argvs), capture_output=True, text=True)
    out = {name: -2 for name, _ in argvs}
    for line in got.stdout.splitlines():
        name, rc = json.loads(line)
        out[name] = rc
    return out


def _read(path: Path, expand: bool) -> bytes:
    if not expand:
        return path.read_bytes()
    from vllm_kb.engine.report import catalogue, json_text

    return (json_text.dumps(catalogue.expand(json.loads(path.read_text(encoding="utf-8")))) + "\n").encode("utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after", nargs="?", default=str(Path(sys.executable).with_name("vllm-kb")))
    ap.add_argument("--vllm-tree", help="vLLM's unpacked source tree (left out when not given)")
    ap.add_argument("--keep", help="write the reports here and keep them")
    ap.add_argument("-j", type=int, default=2, help="reports made at once")
    ap.add_argument("--one-process", action="store_true", help="each side's reports in one process")
    ap.add_argument("--expand", action="store_true", help="read AFTER's JSON back as schema_version 1 before comparing")
    a = ap.parse_args(argv)
    work = Path(a.keep) if a.keep else Path(tempfile.mkdtemp(prefix="vllm-kb-same-"))
    todo = jobs(Path(a.vllm_tree) if a.vllm_tree else None)
    for side in ("before", "after"):
        (work / side).mkdir(parents=True, exist_ok=True)

    sides = (("before", a.before), ("after", a.after))
    exits: dict[tuple[str, str], int] = {}
    if a.one_process:
        with ThreadPoolExecutor(2) as pool:
            for side, got in zip(("before", "after"), pool.map(lambda s: run_all(s[1], todo, work / s[0]), sides)):
                exits.update({(side, name): rc for name, rc in got.items()})

    def both(job: tuple[str, Path, str, list[str]]) -> str | None:
        name, tree, gpu, flags = job
        rc = [exits[(side, name)] if a.one_process else run_one(exe, tree, gpu, flags, work / side / name) for side, exe in sides]
        b, f = work / "before" / name, work / "after" / name
        if rc[0] != rc[1]:
            return f"{name}: exit {rc[0]} before, {rc[1]} after"
        if rc[0] == -2:
            return f"{name}: not run (the one process of each side ended before it)"
        if b.exists() != f.exists() or (b.exists() and b.read_bytes() != _read(f, a.expand and name.endswith(".json"))):
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
