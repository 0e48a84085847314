"""SkyPilot task and SkyServe YAML: the `run:` script is read with `envs:` as its environment and the
variables SkyPilot sets itself (SKYPILOT_NUM_GPUS_PER_NODE from `resources.accelerators`,
SKYPILOT_NUM_NODES from `num_nodes`; a node's rank and IPs stay unknown); `setup:` may install
the vLLM the task runs, and may start it too (a pool's workers): it is read with the envs only,
without the variables SkyPilot sets for `run:` or that `run:` assigns."""
from __future__ import annotations

import re

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan import gpu_types, pins
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.embedded import block_first_line, script_sites
from vllm_kb.engine.scan.site import Setting, Site


def is_skypilot(data: dict) -> bool:
    return isinstance(data.get("run"), str) and (isinstance(data.get("resources"), dict) or "envs" in data
                                                 or "num_nodes" in data or "setup" in data or "service" in data)


def accelerators(resources) -> tuple[int | None, list[str]]:
    """(GPUs per node, accepted GPU types) from `accelerators: H100:8`, `{L4:1, A10G:1}`,
    `[A100:8, H100:8]`; the count is None when the candidates disagree."""
    if not isinstance(resources, dict):
        return None, []
    acc = resources.get("accelerators")
    machine = gpu_types.instance_gpu(resources.get("instance_type")) if acc is None else None
    if machine:  # `instance_type: g5.12xlarge` alone: the machine's GPUs
        return machine[1], [machine[0]]
    if acc is None and isinstance(resources.get("any_of"), list):
        acc = [r.get("accelerators") for r in resources["any_of"] if isinstance(r, dict)]
    items: list[tuple[str, int]] = []
    # `{H100:8, H200:8}` (SkyPilot's own spelling, no space after the colon) is a YAML set: keys
    # "H100:8" with null values; `{H100: 8}` is a mapping
    for a in (acc if isinstance(acc, list) else [acc]) if not isinstance(acc, dict) else [k if v is None else f"{k}:{v}" for k, v in acc.items()]:
        if isinstance(a, str):
            name, _, n = a.partition(":")
            items.append((name.strip(), int(float(n)) if n.strip().replace(".", "", 1).isdigit() else 1))
    counts = {n for _, n in items}
    return (counts.pop() if len(counts) == 1 else None), [t for t, _ in items]


def scan_skypilot(ctx: ScanContext, rel: str, doc: yamlio.Document) -> list[Site]:
    data = doc.data
    envs = {str(k): ("" if v is None else str(v)) for k, v in (data.get("envs") or {}).items()} if isinstance(data.get("envs"), dict) else {}
    gpus, types = accelerators(data.get("resources"))
    nodes = data.get("num_nodes", 1)
    known = dict(envs)
    if gpus is not None:
        known["SKYPILOT_NUM_GPUS_PER_NODE"] = str(gpus)
    if isinstance(nodes, int) and not isinstance(nodes, bool):
        known["SKYPILOT_NUM_NODES"] = str(nodes)
    env = {k: Setting(k, v, True, rel, doc.line_of(("envs", k)), k, v, "skypilot") for k, v in envs.items()}
    lines = (ctx.read(rel) or "").splitlines()
    first = block_first_line(lines, doc.line_of(("run",)), data["run"])
    installed = _setup_install(ctx, rel, data.get("setup"), lines, doc.line_of(("setup",)))
    version = ctx.catalog.installed_version(installed[0] if installed else None)
    sites = script_sites(ctx, rel, data["run"], first, known=known, env=env, tool="skypilot", version=version)
    if isinstance(data.get("setup"), str) and data["setup"].strip():
        sites += script_sites(ctx, rel, data["setup"], block_first_line(lines, doc.line_of(("setup",)), data["setup"]),
                              known=_setup_known(envs, nodes, data["run"]), env=env, tool="skypilot", version=version)
    for s in sites:
        s.gpu_request = s.gpu_request or gpus
        s.gpu_types = s.gpu_types or types
        if isinstance(data.get("resources"), dict) and gpu_types.instance_gpu(data["resources"].get("instance_type")) and types:
            s.gpu_per_node = s.gpu_per_node or gpus
        if installed:
            s.installed = installed
    return sites


def _setup_install(ctx: ScanContext, rel: str, setup, lines: list[str], key_line: int) -> tuple[str, str, str] | None:
    """The vLLM `setup:` installs, read as a shell script's pip lines are (`vllm==0.6.3`, and a
    range such as `"vllm>=0.10.0"` as the newest known release in it): (release, file:line, text)."""
    if not isinstance(setup, str) or "install" not in setup:
        return None
    first = block_first_line(lines, key_line, setup)
    found = pins.script_pins(ctx, rel, setup)
    for p in found:
        p.line += first - 1
    return pins.site_install(found, ctx.catalog.versions, ctx.catalog.newest)


# What `setup:` runs without (SkyPilot 0.10.3 and 0.14.1 sky/backends/cloud_vm_ray_backend.py: setup
# gets the task's envs, SKYPILOT_SETUP_NODE_RANK/_IPS and, in 0.14, SKYPILOT_SETUP_NUM_GPUS_PER_NODE;
# SKYPILOT_NUM_GPUS_PER_NODE, SKYPILOT_NODE_RANK and SKYPILOT_NODE_IPS are set for `run:` only)
RUN_ONLY = ("SKYPILOT_NUM_GPUS_PER_NODE", "SKYPILOT_NODE_RANK", "SKYPILOT_NODE_IPS")
_ASSIGN = re.compile(r"^\s*(?:export\s+)?([A-Za-z_]\w*)=", re.M)


def _setup_known(envs: dict[str, str], nodes, run: str) -> dict[str, str]:
    """The variables `setup:` starts with: the task's envs; empty, the ones SkyPilot sets for
    `run:` only and the ones only `run:` assigns (setup runs first, in a shell of its own)."""
    known = {name: "" for name in (*RUN_ONLY, *_ASSIGN.findall(run)) if name not in envs}
    known.update(envs)
    if isinstance(nodes, int) and not isinstance(nodes, bool):
        known["SKYPILOT_NUM_NODES"] = str(nodes)
    return known
