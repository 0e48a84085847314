"""The performance benchmark, in one run and side by side on the same trees:

- vLLM's own source tree (the 0.34.0 sdist, fetched here from PyPI; or --vllm-tree DIR),
  a generated 5,000-file repository (50 sites) and a generated 10,000-file one with 5,000 sites
  (benchmarks/gen_repo.py): `git grep -l -e vllm`, `ruff check --select E9 --no-cache` (which
  parses every Python file), `vllm-kb audit` (JSON to a file) and `vllm-kb detect`;
- cold start of `vllm-kb audit` on a 20-file project (a fresh interpreter each time);
- the MCP `audit` answer on a 1,000-site repository through the Python SDK's client over stdio
  and over streamable HTTP: its size in tokens (characters / 4) and time.

    python benchmarks/run.py [--vllm-tree DIR] [--trees vllm,gen-5000,gen-10000,cold,mcp] [--repeat 3]
                             [--compare OTHER/bin/vllm-kb] [--keep DIR] [--json]

Each number is the median of --repeat runs: wall seconds, CPU seconds (user + system of the
process and its workers) and peak memory: the largest process's (max RSS, os.wait4) and the peak
of the sums over all its processes, forked workers included (PSS and RSS from
/proc/<pid>/smaps_rollup, polled every 20 ms; Linux). The machine is shared; ratios are
taken between runs made back to back on the same tree. `--compare` runs a second vllm-kb (e.g. the
release before a change) beside this one. Targets (2-core machine): vLLM tree ≤ 2× ruff E9;
5,000 files ≤ 3× ruff E9; 10,000 files with 5,000 sites ≤ 300 MB (all processes together); 20 files cold ≤ 0.4 s; detect
never slower than audit; MCP audit on 1,000 sites ≤ 25,000 tokens.
How one command is measured: benchmarks/measure.py.
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
import tarfile
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_repo  # noqa: E402
from measure import median_run, peak, timed  # noqa: E402

GPU = "H100-80GB x8"
VLLM_SDIST = "vllm==0.34.0"


def vllm_kb() -> list[str]:
    exe = Path(sys.executable).with_name("vllm-kb")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "vllm_kb.cli.main"]


def ruff_cmd(work: Path) -> list[str]:
    exe = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    if Path(exe).exists():
        return [exe]
    target = work / "ruff-pkg"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--target", str(target), "ruff"], check=True)
    return [str(target / "bin" / "ruff")]


def fetch_vllm_tree(work: Path, version: str | None = None) -> Path:
    """vLLM's source distribution (0.34.0 unless `version`) from PyPI, checked against the index's sha256, unpacked.
    The file is found through the simple index (what pip reads): `pip download --no-binary` would
    build vLLM's metadata, which needs its whole toolchain."""
    import hashlib
    import re
    import urllib.parse
    import urllib.request

    dl = work / "sdist"
    dl.mkdir(parents=True, exist_ok=True)
    version = version or VLLM_SDIST.split("==")[1]
    name = f"vllm-{version}.tar.gz"
    archive = dl / name
    if not archive.exists():
        index = urllib.request.urlopen("https://pypi.org/simple/vllm/", timeout=60).read().decode()
        m = re.search(r'href="([^"]*/' + re.escape(name) + r')#sha256=([0-9a-f]{64})"', index)
        if m is None:
            raise SystemExit(f"{name} is not on the package index")
        url, digest = m.group(1), m.group(2)
        data = urllib.request.urlopen(urllib.parse.urljoin("https://pypi.org/simple/vllm/", url), timeout=600).read()
        if hashlib.sha256(data).hexdigest() != digest:
            raise SystemExit(f"{name}: sha256 does not match the index")
        archive.write_bytes(data)
    out = work / f"vllm-src-{version}"
    if not out.exists():
        with tarfile.open(archive) as tar:
            if hasattr(tarfile, "data_filter"):
                tar.extractall(out, filter="data")
            else:  # pragma: no cover — Pythons before the extraction filters
                tar.extractall(out)  # noqa: S202
    return next(out.iterdir())


def git_tree(src: Path, work: Path, name: str) -> Path:
    """A copy of a tree under git (for git grep), so every tool reads the same files."""
    dst = work / name
    if not dst.exists():
        shutil.copytree(src, dst, symlinks=True)
    if not (dst / ".git").exists():
        git = ["git", "-c", "init.defaultBranch=main", "-c", "core.autocrlf=false"]
        subprocess.run(git + ["init", "-q"], cwd=dst, check=True)
        subprocess.run(git + ["add", "-A", "-f"], cwd=dst, check=True)
    return dst


def _sites_in(report: Path) -> int | None:
    """The report's site count, from its summary near the top: loading a 200 MB report here would
    grow this process, and every child forked after it would count that memory as its own peak."""
    import re

    try:
        with open(report, encoding="utf-8") as f:
            head = f.read(1 << 16)
    except OSError:
        return None
    m = re.search(r'"summary": \{\s*"sites": (\d+)', head)
    return int(m.group(1)) if m else None


def mcp_answer(tree: Path, transport: str = "stdio") -> dict:
    """The MCP audit answer on `tree` through the SDK's client over stdio or streamable HTTP (a
    server started here on a free local port): tokens and seconds."""
    import socket

    import anyio
    from mcp import Client, StdioServerParameters

    server = [sys.executable, "-m", "vllm_kb.mcp_server", "--root", str(tree)]
    proc = None
    if transport == "http":
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        proc = subprocess.Popen(server + ["--transport", "http", "--port", str(port)], cwd=str(tree),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the MCP server did not start") from None
                time.sleep(0.2)
        target: object = f"http://127.0.0.1:{port}/mcp"
    else:
        target = StdioServerParameters(command=server[0], args=server[1:], cwd=str(tree), env=dict(os.environ))

    async def go() -> dict:
        async with Client(target) as c:
            t = time.perf_counter()
            r = await c.call_tool("audit", {"path": str(tree), "gpu": GPU})
            wall = time.perf_counter() - t
            text = "".join(getattr(x, "text", "") for x in r.content)
            chars = len(json.dumps(r.structured_content, ensure_ascii=False, separators=(",", ":"))) + len(text)
            return {"transport": transport, "wall_s": wall, "tokens": chars // 4, "error": r.is_error,
                    "sites": (r.structured_content or {}).get("sites_total")}

    try:
        return anyio.run(go)
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=30)


def bench_tree(name: str, tree: Path, kbs: dict[str, list[str]], ruff: list[str], repeat: int, work: Path,
               workers: int = 0) -> dict:
    """Each command once per round, the rounds back to back: on a shared machine the load drifts,
    and interleaving gives every command the same share of it."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if workers:
        env["VLLM_KB_WORKERS"] = str(workers)
    row: dict = {"tree": name, "files": sum(1 for p in tree.rglob("*") if p.is_file() and ".git" not in p.parts),
                 "load_before": os.getloadavg()[0]}
    cmds: dict[str, tuple[list[str], Path | None, dict | None]] = {
        "git_grep": (["git", "grep", "-l", "-e", "vllm"], tree, None),
        "ruff_e9": (ruff + ["check", "--select", "E9", "--no-cache", "--quiet", "--exit-zero", "."], tree, None)}
    for label, kb in kbs.items():
        out = work / f"{name}-{label}.json"
        cmds[f"audit_{label}"] = (kb + ["audit", str(tree), "--gpu", GPU, "--format", "json", "-o", str(out), "--quiet"], None, env)
        cmds[f"detect_{label}"] = (kb + ["detect", str(tree), "--quiet"], None, env)
    runs: dict[str, list[dict]] = {k: [] for k in cmds}
    for _ in range(repeat):
        for key, (argv, cwd, e) in cmds.items():
            runs[key].append(timed(argv, cwd, e))
    for key, rs in runs.items():
        row[key] = {"wall_s": statistics.median(r["wall"] for r in rs), "cpu_s": statistics.median(r["cpu"] for r in rs),
                    "max_rss_mib": max(r["rss"] for r in rs), "sum_rss_mib": peak(rs, "sum_rss"),
                    "sum_pss_mib": peak(rs, "sum_pss"), "exit": sorted({r["exit"] for r in rs})}
        # the ratio to ruff within each round (the load drifts between rounds), then its median
        row[key]["x_ruff_cpu"] = statistics.median(r["cpu"] / max(q["cpu"], 1e-9) for r, q in zip(rs, runs["ruff_e9"]))
        row[key]["x_ruff_wall"] = statistics.median(r["wall"] / max(q["wall"], 1e-9) for r, q in zip(rs, runs["ruff_e9"]))
    for label in kbs:
        row[f"audit_{label}"]["sites"] = _sites_in(work / f"{name}-{label}.json")
    row["load_after"] = os.getloadavg()[0]
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--vllm-tree", help="an unpacked vLLM source tree instead of downloading the 0.34.0 sdist")
    ap.add_argument("--skip-vllm", action="store_true", help="leave vLLM's tree out")
    ap.add_argument("--only-targets", action="store_true",
                    help="only the two trees of the speed targets (vLLM's and the 5,000-file one), without the MCP answer")
    ap.add_argument("--trees", help="only these trees, comma-separated: vllm, gen-5000, gen-10000 (the memory target's "
                                    "10,000 files with 5,000 sites); no cold start or MCP answer unless `cold` or `mcp` is named")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--compare", metavar="VLLM_KB", help="another vllm-kb executable to run beside this one")
    ap.add_argument("--keep", help="make the trees here and keep them")
    ap.add_argument("--json", action="store_true", help="print the numbers as JSON")
    ap.add_argument("--workers", type=int, default=0,
                    help="VLLM_KB_WORKERS for every vllm-kb run (1: one process, what CPU seconds compare best; 0: its own choice)")
    ap.add_argument("--out", help="also write the table, with when and on what it ran, to this file (e.g. benchmarks/results.md)")
    a = ap.parse_args(argv)
    if shutil.which("git") is None:
        print("git is needed for the git-grep baseline", file=sys.stderr)
        return 2
    work = Path(a.keep) if a.keep else Path(tempfile.mkdtemp(prefix="vllm-kb-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    kbs = {"this": vllm_kb()}
    if a.compare:
        kbs["compare"] = [a.compare]
    res: dict = {"machine": {"nproc": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
                 "trees": []}
    try:
        ruff = ruff_cmd(work)
        small = work / "gen-20"
        if not small.exists():
            gen_repo.generate(small, 20, 3, seed=1)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        for kb in kbs.values():  # warm: bytecode and the vllm-kb cache, as on any run after the first
            timed(kb + ["audit", str(small), "--gpu", GPU, "--quiet"], env=env)
        only = set(a.trees.split(",")) if a.trees else None
        trees = []
        if not a.skip_vllm and (only is None or "vllm" in only):
            src = Path(a.vllm_tree) if a.vllm_tree else fetch_vllm_tree(work)
            trees.append(("vllm-0.34.0", git_tree(src, work, "vllm-tree")))
        # (its --trees name, the tree's name, files, sites, seed)
        generated = (("gen-5000", "gen-5000", 5000, 50, 0), ("gen-10000", "gen-10000-5000-sites", 10000, 5000, 2))
        for short, name, files, sites, seed in generated[:1] if a.only_targets else generated:
            if only is not None and short not in only:
                continue
            dst = work / name
            if not dst.exists():
                gen_repo.generate(dst, files, sites, seed=seed)
            trees.append((name, git_tree(dst, work, name)))
        for name, tree in trees:
            res["trees"].append(bench_tree(name, tree, kbs, ruff, a.repeat, work, a.workers))
        for label, kb in kbs.items():
            if only is not None and "cold" not in only:
                break
            res[f"cold_20_{label}"] = median_run(kb + ["audit", str(small), "--gpu", GPU, "--quiet"], max(5, a.repeat), env=env)
        if not a.only_targets and (only is None or "mcp" in only):
            mcp_tree = work / "gen-1000-sites"
            if not mcp_tree.exists():
                gen_repo.generate(mcp_tree, 1100, 1000, seed=3)
            res["mcp_1000_sites"] = [mcp_answer(mcp_tree, t) for t in ("stdio", "http")]
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
    if a.json:
        print(json.dumps(res, indent=2))
    else:
        print(table(res, list(kbs)))
    if a.out:
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        head = (f"# Benchmark results\n\n`python benchmarks/run.py {' '.join(sys.argv[1:] if argv is None else argv)}`, {when}; "
                f"{a.repeat} rounds, each command once per round; VLLM_KB_WORKERS={a.workers or 'auto'}.\n"
                "The × ruff columns are the median of the per-round ratios.\n\n")
        Path(a.out).write_text(head + table(res, list(kbs)) + "\n\n```json\n" + json.dumps(res, indent=2) + "\n```\n",
                               encoding="utf-8")
    return 0


def _sums(r: dict) -> str:
    """The peak sums over all the run's processes (a short run can end between two samples)."""
    if r.get("sum_pss_mib") is None:
        return "–"
    return f"{r['sum_pss_mib']:.0f} ({r['sum_rss_mib']:.0f})"


def table(res: dict, labels: list[str]) -> str:
    m = res["machine"]
    out = [f"machine: {m['nproc']} CPUs, Python {m['python']}, {m['platform']}", "",
           "| tree | files | what | wall s | CPU s | max RSS MiB | Σ PSS MiB (Σ RSS) | × ruff E9 (wall) | × ruff E9 (CPU) |",
           "|---|---:|---|---:|---:|---:|---:|---:|---:|"]
    for row in res["trees"]:
        ruff, ruff_cpu = row["ruff_e9"]["wall_s"], row["ruff_e9"]["cpu_s"]
        cells = [("git grep -l vllm", row["git_grep"]), ("ruff check --select E9", row["ruff_e9"])]
        for label in labels:
            sites = row[f"audit_{label}"].get("sites")
            cells += [(f"vllm-kb audit ({label}, {sites} sites)", row[f"audit_{label}"]),
                      (f"vllm-kb detect ({label})", row[f"detect_{label}"])]
        for what, r in cells:
            out.append(f"| {row['tree']} | {row['files']} | {what} | {r['wall_s']:.2f} | {r['cpu_s']:.2f} | "
                       f"{r['max_rss_mib']:.0f} | {_sums(r)} | {r.get('x_ruff_wall', r['wall_s'] / ruff):.1f}× | "
                       f"{r.get('x_ruff_cpu', r['cpu_s'] / ruff_cpu):.1f}× |")
        out.append(f"| {row['tree']} | | (load average, 1 min: {row['load_before']:.1f} before, {row['load_after']:.1f} after) | | | | | | |")
    out.append("")
    for label in labels:
        r = res.get(f"cold_20_{label}")
        if r is None:
            continue
        out.append(f"cold audit, 20 files ({label}): {r['wall_s']:.2f} s wall, {r['cpu_s']:.2f} s CPU (target ≤ 0.4 s), "
                   f"{r['max_rss_mib']:.0f} MiB max RSS")
    for mcp in res.get("mcp_1000_sites") or []:
        out.append(f"MCP audit, {mcp['sites']} sites, {mcp['transport']}: {mcp['tokens']} tokens in {mcp['wall_s']:.1f} s "
                   "(target ≤ 25,000)")
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
