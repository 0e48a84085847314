"""The audit benchmark, in one run and side by side:

- `git grep -l -e vllm` on a synthetic 5,000-file repository (benchmarks/gen_repo.py, 50 vLLM
  sites; git init + add first) against the full `vllm-kb audit` of the same tree, and their ratio;
- cold start (a fresh interpreter each time) of `vllm-kb audit` on a 20-file project and of
  `vllm-kb --help`;
- peak memory (max RSS of the audit process, from os.wait4's rusage).

    python benchmarks/run.py [--files 5000] [--sites 50] [--repeat 5] [--keep DIR] [--json]

Times are medians of --repeat runs (wall clock, including interpreter start). "empty cache" runs
point VLLM_KB_CACHE_DIR at a new folder, so the CEL grammar tables are built from scratch, as on
the very first run on a machine. Targets (2-core machine): audit ≤ 3× git grep on the big tree,
≤ 0.6 s for the 20-file project, peak memory ≤ 200 MB.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_repo  # noqa: E402

GPU = "H100-80GB x8"


def vllm_kb() -> list[str]:
    exe = Path(sys.executable).with_name("vllm-kb")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "vllm_kb.cli.main"]


def timed(argv: list[str], cwd: Path | None = None, env: dict | None = None) -> tuple[float, int, int]:
    """(wall seconds, max RSS in KiB, exit code) of one child process."""
    t = time.perf_counter()
    p = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    p.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_maxrss, p.returncode


def median_run(argv: list[str], repeat: int, cwd: Path | None = None, fresh_cache: bool = False,
               cache_root: Path | None = None) -> dict:
    walls, rss, codes = [], [], set()
    for i in range(repeat):
        env = dict(os.environ)
        # an installed tool has its bytecode compiled; let the first run write it
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        if fresh_cache and cache_root is not None:
            env["VLLM_KB_CACHE_DIR"] = str(cache_root / f"c{time.monotonic_ns()}")
        w, m, c = timed(argv, cwd, env)
        walls.append(w)
        rss.append(m)
        codes.add(c)
    return {"median_s": statistics.median(walls), "min_s": min(walls), "max_rss_mib": max(rss) / 1024, "exit": sorted(codes)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=5000)
    ap.add_argument("--sites", type=int, default=50)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--keep", help="generate the trees here and keep them")
    ap.add_argument("--json", action="store_true", help="print the numbers as JSON")
    a = ap.parse_args(argv)
    if shutil.which("git") is None:
        print("git is needed for the git-grep baseline", file=sys.stderr)
        return 2
    work = Path(a.keep) if a.keep else Path(tempfile.mkdtemp(prefix="vllm-kb-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    big, small, caches = work / "big", work / "small", work / "caches"
    try:
        for p in (big, small):
            shutil.rmtree(p, ignore_errors=True)
        gen_repo.generate(big, a.files, a.sites, seed=0)
        gen_repo.generate(small, 20, 3, seed=1)
        git = ["git", "-c", "init.defaultBranch=main", "-c", "core.autocrlf=false"]
        subprocess.run(git + ["init", "-q"], cwd=big, check=True)
        subprocess.run(git + ["add", "-A"], cwd=big, check=True)
        kb = vllm_kb()
        out = work / "report.json"
        audit_big = kb + ["audit", str(big), "--gpu", GPU, "--format", "json", "-o", str(out)]
        warm_env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        timed(audit_big, env=warm_env)  # warm the page cache, the bytecode and the vllm-kb cache once
        timed(kb + ["--help"], env=warm_env)
        res = {
            "machine": {"nproc": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
            "tree": {"files": a.files, "sites": a.sites},
            "git_grep": median_run(["git", "grep", "-l", "-e", "vllm"], a.repeat, cwd=big),
            "audit_big": median_run(audit_big, max(3, a.repeat // 2)),
            "audit_small": median_run(kb + ["audit", str(small), "--gpu", GPU], a.repeat),
            "audit_small_empty_cache": median_run(kb + ["audit", str(small), "--gpu", GPU], a.repeat, fresh_cache=True, cache_root=caches),
            "help": median_run(kb + ["--help"], a.repeat),
        }
        report = json.loads(out.read_text())
        res["audit_big"]["sites_found"] = report["summary"]["sites"]
        res["ratio"] = res["audit_big"]["median_s"] / res["git_grep"]["median_s"]
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
    if a.json:
        print(json.dumps(res, indent=2))
        return 0
    m = res["machine"]
    print(f"machine: {m['nproc']} CPUs, Python {m['python']}, {m['platform']}")
    print(f"tree: {a.files} files, {a.sites} vLLM sites (the audit found {res['audit_big']['sites_found']})\n")
    rows = [
        ("git grep -l -e vllm (big tree)", res["git_grep"], None),
        ("vllm-kb audit (big tree)", res["audit_big"], "≤ 3× git grep"),
        ("vllm-kb audit (20 files)", res["audit_small"], "≤ 0.6 s"),
        ("  … with an empty cache", res["audit_small_empty_cache"], ""),
        ("vllm-kb --help", res["help"], ""),
    ]
    print(f"{'what':<34} {'median s':>9} {'min s':>7} {'max RSS MiB':>12}  target")
    for name, r, target in rows:
        print(f"{name:<34} {r['median_s']:>9.3f} {r['min_s']:>7.3f} {r['max_rss_mib']:>12.1f}  {target or ''}")
    print(f"\naudit / git grep = {res['ratio']:.1f}×   (target ≤ 3×)")
    peak = max(r["max_rss_mib"] for _, r, _ in rows[1:])
    print(f"peak memory of any vllm-kb run = {peak:.1f} MiB   (target ≤ 200 MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
