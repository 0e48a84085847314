"""A per-commit guard on the audit's work, counted instead of timed: on a machine shared by other
jobs the CPU seconds of the same command move by ±20 % between two runs, so a timed test either
fails for nothing or lets a 10 % slowdown through. What this counts moves only when the code does.

    python benchmarks/guard.py [--update] [--tolerance 2.0] [--instructions] [--keep DIR] [--json] [--tree NAME]

Two audits, on trees benchmarks/gen_repo.py makes the same way each time: the 5,000-file tree of
the speed target (50 sites, JSON report) and the cold 20-file project (3 sites, text report).
Each runs once to warm the knowledge cache and the byte code (what every run after the first
finds), then once counted, in one process (`VLLM_KB_WORKERS=1`: workers start by the pace, which
the counting would change) with `PYTHONHASHSEED=0` (set iteration order, hence which memo is hit
first), under cProfile: the number of function calls — Python's and the C functions' — is the
count, with the parses (`ast.parse`) and the files opened beside it to say where a change came
from. With `--instructions`, or by itself where `perf stat -e instructions:u` works (not in most
virtual machines), the user-space instructions of the same run without the profiler are counted
too: by `perf stat`, else by valgrind (`cachegrind --cache-sim=no`, about a minute per audit).

The counts are held against benchmarks/guard_baseline.json, one entry per Python minor version
(the standard library's calls differ between them): a count more than `--tolerance` per cent
above its baseline fails (exit 1); one that far below it says so, and `--update` writes the new
counts (commit them with the change that moved them, and say why). Exit 2: no baseline for this
Python (run `--update` once). docs/performance.md explains the numbers.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import gen_repo  # noqa: E402

BASELINE = HERE / "guard_baseline.json"
GPU = "H100-80GB x8"
# (name, files, sites, seed, report format): the trees of the speed targets (benchmarks/run.py)
TREES = (("audit-5000", 5000, 50, 0, "json"), ("cold-20", 20, 3, 1, "text"))
# the profile's function names counted beside the total, to say where a change came from
NAMED = {"parses": ("ast.py", "parse"), "opens": ("~", "<built-in method io.open>")}

_COUNT = """
import cProfile, json, pstats, sys
sys.argv = ["vllm-kb"] + sys.argv[2:]
from vllm_kb.cli.main import _main, _one_shot_gc
_one_shot_gc()  # as the console script runs
prof = cProfile.Profile()
prof.enable()
try:
    _main(None, sys.argv[1:])
except SystemExit:
    pass
prof.disable()
st = pstats.Stats(prof).stats
named = json.loads({named!r})
out = {{"calls": sum(v[1] for v in st.values()), "primitive_calls": sum(v[0] for v in st.values())}}
for key, (file, fn) in named.items():
    out[key] = sum(v[1] for (f, _l, n), v in st.items() if f.endswith(file) and n == fn)
print("GUARD " + json.dumps(out))
"""


def _env() -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VLLM_KB_") and k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONHASHSEED="0", VLLM_KB_WORKERS="1")
    return env


def _argv(tree: Path, fmt: str, work: Path) -> list[str]:
    argv = ["audit", str(tree), "--gpu", GPU, "--quiet", "--format", fmt]
    return argv + ["-o", str(work / f"{tree.name}.{fmt}")]


def _kb() -> list[str]:
    exe = Path(sys.executable).with_name("vllm-kb")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "vllm_kb.cli.main"]


def count_calls(tree: Path, fmt: str, work: Path) -> dict:
    code = _COUNT.format(named=json.dumps(NAMED))
    out = subprocess.run([sys.executable, "-c", code, "-", *_argv(tree, fmt, work)], env=_env(),
                         capture_output=True, text=True, check=False)
    line = next((ln for ln in out.stdout.splitlines() if ln.startswith("GUARD ")), None)
    if line is None:
        raise SystemExit(f"the counted audit of {tree.name} failed (exit {out.returncode}):\n{out.stderr[-2000:]}")
    return json.loads(line[6:])


def perf_works() -> bool:
    if shutil.which("perf") is None:
        return False
    out = subprocess.run(["perf", "stat", "-x,", "-e", "instructions:u", "true"], capture_output=True, text=True, check=False)
    return out.returncode == 0 and re.match(r"\d+,", out.stderr.strip().splitlines()[-1] if out.stderr.strip() else "") is not None


def count_instructions(tree: Path, fmt: str, work: Path) -> tuple[str, int] | None:
    """User-space instructions of the audit (no profiler): perf stat where the machine counts them,
    else valgrind's cachegrind without its cache simulation; None where neither runs."""
    argv = _kb() + _argv(tree, fmt, work)
    if perf_works():
        out = subprocess.run(["perf", "stat", "-x,", "-e", "instructions:u", *argv], env=_env(), capture_output=True, text=True,
                             check=False)
        m = re.search(r"^(\d+),[^,]*,instructions", out.stderr, re.MULTILINE)
        return ("perf", int(m.group(1))) if m else None
    if shutil.which("valgrind") is None:
        return None
    cg = work / "cachegrind.out"
    subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={cg}", *argv],
                   env=_env(), capture_output=True, text=True, check=False)
    try:
        m = re.search(r"^summary:\s+(\d+)", cg.read_text(encoding="utf-8"), re.MULTILINE)
    except OSError:
        return None
    return ("valgrind", int(m.group(1))) if m else None


def measure(work: Path, instructions: bool, only: Sequence[str] = ()) -> dict:
    got: dict = {}
    for name, files, sites, seed, fmt in TREES:
        if only and name not in only:
            continue
        tree = work / name
        if not tree.exists():
            gen_repo.generate(tree, files, sites, seed=seed)
        # warm: the knowledge cache and byte code, as every run after the first finds them
        subprocess.run(_kb() + _argv(tree, fmt, work), env=_env(), capture_output=True, check=False)
        got[name] = count_calls(tree, fmt, work)
        if instructions:
            ins = count_instructions(tree, fmt, work)
            if ins is not None:
                got[name][f"instructions_{ins[0]}"] = ins[1]
    return got


def compare(got: dict, base: dict, tolerance: float) -> tuple[list[str], bool]:
    lines, failed = [], False
    for name, counts in got.items():
        for key, value in counts.items():
            was = (base.get(name) or {}).get(key)
            if was is None:
                lines.append(f"{name} {key}: {value:,} (no baseline)")
                continue
            change = 100.0 * (value - was) / max(was, 1)
            mark = ""
            if key in ("calls",) or key.startswith("instructions"):  # what the guard holds; the others say where
                if change > tolerance:
                    mark, failed = "  ← more than the tolerance: slower", True
                elif change < -tolerance:
                    mark = "  ← fewer: run --update to hold the gain"
            lines.append(f"{name} {key}: {was:,} → {value:,} ({change:+.2f} %){mark}")
    return lines, failed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--update", action="store_true", help="write the counts as this Python's baseline")
    ap.add_argument("--tolerance", type=float, default=2.0, help="per cent above the baseline that fails (default 2)")
    ap.add_argument("--instructions", action="store_true", help="count instructions too (perf stat, else valgrind: slow)")
    ap.add_argument("--keep", help="make the trees here and keep them")
    ap.add_argument("--json", action="store_true", help="print the counts as JSON")
    ap.add_argument("--tree", action="append", choices=[t[0] for t in TREES], default=[],
                    help="count only this tree (repeatable; tests/test_guard.py counts cold-20); --update keeps the others")
    a = ap.parse_args(argv)
    work = Path(a.keep) if a.keep else Path(tempfile.mkdtemp(prefix="vllm-kb-guard-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        got = measure(work, a.instructions or perf_works(), a.tree)
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
    py = ".".join(platform.python_version_tuple()[:2])
    data = json.loads(BASELINE.read_text(encoding="utf-8")) if BASELINE.exists() else {}
    if a.json:
        print(json.dumps(got, indent=2))
    if a.update:
        data[py] = {**data.get(py, {}), **got}
        BASELINE.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        print(f"baseline for Python {py} written to {BASELINE.relative_to(HERE.parent)}")
        return 0
    if py not in data:
        print(f"no baseline for Python {py} in {BASELINE.name}: run with --update once", file=sys.stderr)
        return 2
    lines, failed = compare(got, data[py], a.tolerance)
    print("\n".join(lines))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
