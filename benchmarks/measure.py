"""How benchmarks/run.py measures one command: wall and CPU seconds, the largest process's max RSS,
and the peak sums of RSS and PSS over the process and every child it forks (/proc/<pid>/smaps_rollup,
polled every 20 ms; Linux), and the median of repeated runs."""
from __future__ import annotations

import os
import statistics
import subprocess
import time
from pathlib import Path


def _process_tree(root: int) -> list[int]:
    """`root` and every process under it (Linux's /proc/<pid>/task/<tid>/children)."""
    pids, todo = [], [root]
    while todo:
        pid = todo.pop()
        pids.append(pid)
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as f:
                    todo.extend(int(c) for c in f.read().split())
        except (OSError, ValueError):
            pass
    return pids


def _footprint(pids: list[int]) -> tuple[float, float]:
    """The RSS and the PSS of `pids` summed, in MiB (/proc/<pid>/smaps_rollup). PSS shares each
    page among the processes that map it: what forked workers hold together, where summing their
    RSS would count the pages they share with the parent again for each."""
    rss = pss = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as f:
                for line in f:
                    if line.startswith("Rss:"):
                        rss += int(line.split()[1])
                    elif line.startswith("Pss:"):
                        pss += int(line.split()[1])
        except (OSError, ValueError, IndexError):
            pass
    return rss / 1024, pss / 1024


class _Sampler:
    """The peak of the sums of RSS and of PSS over a process and its children, polled every 20 ms
    in a thread (`os.wait4`'s max RSS is the largest single process's: a scan's forked workers
    were not counted). None where /proc has no smaps_rollup."""

    def __init__(self, pid: int) -> None:
        import threading

        self.pid, self.rss, self.pss = pid, 0.0, 0.0
        self.ok = os.path.exists(f"/proc/{pid}/smaps_rollup")
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        if self.ok:
            self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            rss, pss = _footprint(_process_tree(self.pid))
            self.rss, self.pss = max(self.rss, rss), max(self.pss, pss)
            self._stop.wait(0.02)

    def stop(self) -> tuple[float | None, float | None]:
        self._stop.set()
        if self.ok:
            self._thread.join()
            return self.rss, self.pss
        return None, None


def timed(argv: list[str], cwd: Path | None = None, env: dict | None = None) -> dict:
    """Wall and CPU seconds, max RSS (MiB: the largest process), the peak sums of RSS and PSS over
    all its processes (MiB) and the exit code of one child process (and its children)."""
    t = time.perf_counter()
    p = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    sampler = _Sampler(p.pid)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    sum_rss, sum_pss = sampler.stop()
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss": usage.ru_maxrss / 1024,
            "sum_rss": sum_rss, "sum_pss": sum_pss, "exit": os.waitstatus_to_exitcode(status)}


def peak(runs: list[dict], key: str) -> float | None:
    got = [r[key] for r in runs if r.get(key) is not None]
    return max(got) if got else None


def median_run(argv: list[str], repeat: int, cwd: Path | None = None, env: dict | None = None) -> dict:
    runs = [timed(argv, cwd, env) for _ in range(repeat)]
    return {"wall_s": statistics.median(r["wall"] for r in runs), "cpu_s": statistics.median(r["cpu"] for r in runs),
            "max_rss_mib": max(r["rss"] for r in runs), "sum_rss_mib": peak(runs, "sum_rss"),
            "sum_pss_mib": peak(runs, "sum_pss"), "exit": sorted({r["exit"] for r in runs})}
