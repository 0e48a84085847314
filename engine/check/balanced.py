"""Instances of one server behind the project's own load balancer: an nginx `upstream` block whose
`server` lines name two or more local ports (127.0.0.1, localhost, 0.0.0.0, [::1]) that launches of
the project serve on, on an overlapping set of GPUs. They are replicas that share the machine's GPUs
on purpose, each with a small gpu_memory_utilization (https://github.com/BjornWest/instance_scripts:
four `vllm serve` scripts on ports 8000-8003 at 0.2-0.75, nginx least_conn over them), so a low share
is no waste there: `launch.instances_share_gpu`. So is a launch put in the background in the body of a
`for` over several items, on GPUs no item changes (a CUDA_VISIBLE_DEVICES of the loop's variable is
unknown: one GPU per item is no sharing). Launches in different files are not known to run together
(colocation.py wants that evidence for L37's sum); this fact only clears B1's advice."""
from __future__ import annotations

import re
from typing import Any, Callable

from vllm_kb.engine.check.colocation import ENGINE_KINDS, _backgrounded, devices

_UPSTREAM = re.compile(r"\bupstream\s+[\w.-]+\s*\{([^{}]*)\}", re.S)
_SERVER = re.compile(r"^\s*server\s+(?:https?://)?(127\.0\.0\.1|localhost|0\.0\.0\.0|\[::1\]):(\d+)\b", re.M)
_CONF = re.compile(r"(?:^|/)(?:nginx[^/]*\.conf|[^/]*\.conf|nginx\.conf\.template)$")


def upstream_ports(files: list[str], read: Callable[[str], str | None]) -> list[set[int]]:
    """The local ports of each nginx upstream of two or more of them."""
    out = []
    for f in files:
        if not _CONF.search(f):
            continue
        text = read(f) or ""
        if "upstream" not in text:
            continue
        for m in _UPSTREAM.finditer(text):
            ports = {int(p) for _, p in _SERVER.findall(_uncommented(m.group(1)))}
            if len(ports) >= 2:
                out.append(ports)
    return out


def annotate(items: list[tuple[Any, dict]], files: list[str], read: Callable[[str], str | None]) -> None:
    for site, facts in items:  # `for p in 8001 8002; do vllm serve M --port $p … & done`: one GPU, one server per item
        cvd = (site.env or {}).get("CUDA_VISIBLE_DEVICES")
        if (facts.get("launch") or {}).get("in_loop") and site.kind in ENGINE_KINDS and _backgrounded(site, read) \
                and (cvd is None or cvd.resolved) and devices(facts, site.container) is not None:
            facts["launch"]["instances_share_gpu"] = True
    groups = upstream_ports(files, read)
    if not groups:
        return
    # launches on the host itself: a container's port is mapped to another on the host, which nginx names
    served = [(s, f, _port(f)) for s, f in items if s.kind in ENGINE_KINDS and not s.container
              and (f.get("site") or {}).get("serves_http")]
    for ports in groups:
        members = [(s, f) for s, f, p in served if p in ports]
        gpus = [devices(f) for _, f in members]
        if len(members) < 2 or any(g is None for g in gpus):
            continue
        for i, (_s, f) in enumerate(members):
            if any(gpus[i] & g for j, g in enumerate(gpus) if j != i):  # type: ignore[operator]
                f.setdefault("launch", {})["instances_share_gpu"] = True


def _port(facts: dict) -> int:
    """The port the server listens on (vLLM's default 8000 where none is given)."""
    v = (facts.get("args") or {}).get("port", 8000)
    return v if isinstance(v, int) and not isinstance(v, bool) else -1


def _uncommented(text: str) -> str:
    return "\n".join(line.split("#", 1)[0] for line in text.splitlines())
