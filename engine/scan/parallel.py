"""The per-file scan of a large tree across processes. The files are cut into consecutive
chunks; each worker (a fork of this process, so the knowledge, the pins and the release of each
folder are already there) scans its chunks and hands back, per file, the sites and what the scan
recorded on the way (files skipped, config files a command read, chart releases a `helm install`
names); they are merged in the walk's
order, so the report is the same byte for byte whatever the number of workers
(tests/test_parallel_scan.py). `VLLM_KB_WORKERS=N` sets the number (1: none)."""
from __future__ import annotations

import os
from typing import Any, Callable, Iterator

MIN_FILES = 1500  # below this, starting workers costs more than it saves
CHUNK = 48

_ctx: Any = None  # the scan context a forked worker inherited
_scan_one: Callable | None = None


def workers(n_files: int) -> int:
    env = os.environ.get("VLLM_KB_WORKERS", "").strip()
    if env.isdigit() and int(env) > 0:
        return int(env)
    if n_files < MIN_FILES or not hasattr(os, "fork"):
        return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, 8))


def _work(chunk: list[str]) -> list[tuple]:
    ctx, scan_one = _ctx, _scan_one
    assert scan_one is not None  # set before the workers fork
    out = []
    for rel in chunk:
        n_skipped, n_ref, n_charts = len(ctx.skipped), len(ctx.referenced), len(ctx.chart_versions)
        ctx.entry_env = {}  # what this file's commands run (merged by the parent)
        before = set(ctx.referenced) if n_ref else set()
        charts_before = dict(ctx.chart_versions) if n_charts else {}
        sites = scan_one(ctx, rel)
        skips = [(s.file, s.code, s.line, s.detail) for s in ctx.skipped[n_skipped:]]
        refs = sorted(ctx.referenced - before) if len(ctx.referenced) != n_ref else []
        # `helm install … --version X -f values.yaml` in a script: the chart release the YAML pass reads
        charts = {k: v for k, v in ctx.chart_versions.items() if charts_before.get(k) != v}
        out.append((rel, sites, skips, refs, charts, ctx.entry_env))
    from vllm_kb.engine.kb import cache

    cache.flush_all()  # a worker ends without running exit handlers: what it translated is kept now
    return out


def scan(ctx, files: list[str], scan_one: Callable, n: int) -> Iterator[tuple[str, list | None]]:
    """(file, its sites or None when the file is not one to scan here) for `files` in order,
    scanned by `n` forked workers with `scan_one(ctx, rel)`."""
    import multiprocessing

    global _ctx, _scan_one
    _ctx, _scan_one = ctx, scan_one
    chunks = [files[i:i + CHUNK] for i in range(0, len(files), CHUNK)]
    try:
        with multiprocessing.get_context("fork").Pool(n) as pool:
            for result in pool.imap(_work, chunks):
                for rel, sites, skips, refs, charts, runs in result:
                    for file, code, line, detail in skips:
                        ctx.skip(file, code, line, detail)
                    ctx.referenced.update(refs)
                    ctx.chart_versions.update(charts)
                    for target, found in runs.items():
                        ctx.entry_env.setdefault(target, []).extend(found)
                    yield rel, sites
    finally:
        _ctx = _scan_one = None
