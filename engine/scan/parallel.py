"""The per-file scan of a large tree across processes. The files are cut into consecutive
chunks; this process scans every n-th and n - 1 workers (forks of this process, so the knowledge,
the pins and the release of each folder are already there) the others, each handing back, per
file, the sites and what the scan recorded on the way (files skipped, config files a command
read, chart releases a `helm install` names); they are merged in the walk's order, so the report
is the same byte for byte whatever the number of processes (tests/test_parallel_scan.py).
`VLLM_KB_WORKERS=N` sets the number of processes that scan (1: this one alone).

Without it the scan starts in this process and forks only once it knows the pace (`adaptive`):
a tree's file count says little about its work (5,000 generated files hold a second of it,
vLLM's 9,000 files twenty), and a worker costs memory — what it touches of the parent's
pages becomes its own (75–110 MiB each on vLLM's tree)."""
from __future__ import annotations

import os
import time
from typing import Any, Callable, Iterator

MIN_FILES = 1500  # below this, starting workers costs more than it saves
CHUNK = 48
PROBE_S = 1.0  # CPU seconds of scanning between two looks at the pace
MIN_LEFT_S = 2.0  # the scan still ahead, in CPU seconds at that pace, that pays for forking

_ctx: Any = None  # the scan context a forked worker inherited
_scan_one: Callable | None = None


def forced() -> int | None:
    """The number of workers `VLLM_KB_WORKERS` sets, if it sets one."""
    env = os.environ.get("VLLM_KB_WORKERS", "").strip()
    return int(env) if env.isdigit() and int(env) > 0 else None


def workers(n_files: int) -> int:
    """At most this many workers for a scan of `n_files` (`adaptive` decides whether any start)."""
    n = forced()
    if n is not None:
        return n
    if n_files < MIN_FILES or not hasattr(os, "fork"):
        return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, 8, _by_memory()))


def _by_memory() -> int:
    """Workers the machine's free memory holds if each came to own as much as this process does
    now (the most it can: every page it touches becomes its own); unknown: no limit."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            free = next(int(line.split()[1]) for line in f if line.startswith("MemAvailable:"))
        with open("/proc/self/statm", encoding="ascii") as f:
            own = int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024
    except (OSError, ValueError, IndexError, StopIteration):
        return 8
    return max(1, free // max(own, 1))


def adaptive(ctx, files: list[str], scan_one: Callable, n: int) -> Iterator[tuple[str, list | None]]:
    """As `scan`, but this process scans the files in order until the pace says that what is
    left takes MIN_LEFT_S of CPU or more; then `n` workers scan the rest. The files scanned here
    are scanned as with one process and the rest as with workers, each the same report, so the
    report is the same whichever way the pace decides."""
    if n <= 1:
        yield from ((rel, scan_one(ctx, rel)) for rel in files)
        return
    start = time.process_time()
    look = start + PROBE_S
    for i, rel in enumerate(files):
        yield rel, scan_one(ctx, rel)
        now = time.process_time()
        if now >= look:
            left = len(files) - i - 1
            if left >= CHUNK and (now - start) * left / (i + 1) >= MIN_LEFT_S:
                yield from scan(ctx, files[i + 1:], scan_one, n)
                return
            look = now + PROBE_S


def _work(chunk: list[str]) -> list[tuple]:
    ctx, scan_one = _ctx, _scan_one
    assert scan_one is not None  # set before the workers fork
    out = []
    for rel in chunk:
        n_skipped, n_ref, n_charts = len(ctx.skipped), len(ctx.referenced), len(ctx.chart_versions)
        n_runs = len(ctx.image_script_runs)  # `docker run`s of a project image (scan/deploy/image_entry.py)
        ctx.entry_env = {}  # what this file's commands run (merged by the parent)
        before = set(ctx.referenced) if n_ref else set()
        charts_before = dict(ctx.chart_versions) if n_charts else {}
        sites = scan_one(ctx, rel)
        skips = [(s.file, s.code, s.line, s.detail) for s in ctx.skipped[n_skipped:]]
        refs = sorted(ctx.referenced - before) if len(ctx.referenced) != n_ref else []
        # `helm install … --version X -f values.yaml` in a script: the chart release the YAML pass reads
        charts = {k: v for k, v in ctx.chart_versions.items() if charts_before.get(k) != v}
        out.append((rel, sites, skips, refs, charts, ctx.entry_env, ctx.image_script_runs[n_runs:]))
    from vllm_kb.engine.kb import cache

    cache.flush_all()  # a worker ends without running exit handlers: what it translated is kept now
    return out


def scan(ctx, files: list[str], scan_one: Callable, n: int) -> Iterator[tuple[str, list | None]]:
    """(file, its sites or None when the file is not one to scan here) for `files` in order,
    scanned by `n` processes with `scan_one(ctx, rel)`: this one takes every n-th chunk of files
    (scanned as with one process) and n - 1 forked workers the others. A worker idle beside a
    waiting parent was a process's memory for nothing (vLLM's tree: 347 MiB of PSS in all with two
    workers and the parent waiting)."""
    import multiprocessing

    global _ctx, _scan_one
    _ctx, _scan_one = ctx, scan_one
    chunks = [files[i:i + CHUNK] for i in range(0, len(files), CHUNK)]
    try:
        with multiprocessing.get_context("fork").Pool(n - 1) as pool:
            theirs = pool.imap(_work, [c for k, c in enumerate(chunks) if k % n])
            for k, chunk in enumerate(chunks):
                if k % n == 0:
                    for rel in chunk:
                        yield rel, scan_one(ctx, rel)
                    continue
                for rel, sites, skips, refs, charts, runs, image_runs in next(theirs):
                    for file, code, line, detail in skips:
                        ctx.skip(file, code, line, detail)
                    ctx.referenced.update(refs)
                    ctx.chart_versions.update(charts)
                    ctx.image_script_runs.extend(image_runs)
                    for target, found in runs.items():
                        ctx.entry_env.setdefault(target, []).extend(found)
                    yield rel, sites
    finally:
        _ctx = _scan_one = None
