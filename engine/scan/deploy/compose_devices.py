"""What hands a compose service's container devices (engine/check/launch_facts.py: gpu_request_absent,
check L278), and whether the project holds another compose file naming the same service, whose keys
compose merges over these when both are given (`-f a.yml -f b.yml`, or compose.override.yaml beside it)."""
from __future__ import annotations

from pathlib import PurePosixPath

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan.context import ScanContext


def reserved(svc: dict) -> list:
    """`deploy.resources.reservations.devices`: the entries that are mappings."""
    res = ((svc.get("deploy") or {}).get("resources") or {}) if isinstance(svc.get("deploy"), dict) else {}
    held = res.get("reservations") if isinstance(res, dict) else None  # a hand-written file may hold any type
    devices = (held.get("devices") or []) if isinstance(held, dict) else []
    return [d for d in devices if isinstance(d, dict)] if isinstance(devices, list) else []


def device_opts(svc: dict) -> list[str] | None:
    """The service's keys that may hand its container a GPU, as the compose spec writes them: `gpus:`, a
    `runtime:` (nvidia mounts what NVIDIA_VISIBLE_DEVICES names), `devices:` (a node, a CDI name
    `nvidia.com/gpu=all`), `privileged:`, a device reservation or swarm's generic resources under
    `deploy:`, device cgroup rules, a volume from /dev. Any value counts, `${VAR}` included: the check
    judges only a service that has none."""
    got = [k for k in ("gpus", "runtime", "devices", "privileged", "device_cgroup_rules") if svc.get(k)]
    deploy = svc.get("deploy")
    if deploy is not None and not isinstance(deploy, dict):
        got.append("deploy")  # a `${VAR}` or an anchor compose resolves: unread
    res = (deploy or {}).get("resources") if isinstance(deploy, dict) else None
    held = res.get("reservations") if isinstance(res, dict) else None
    if res is not None and not isinstance(res, dict) or held is not None and not isinstance(held, dict):
        got.append("deploy.resources")
    elif isinstance(held, dict) and (held.get("devices") or held.get("generic_resources")):
        got.append("deploy.resources.reservations")
    vols = svc.get("volumes")
    vols = vols if isinstance(vols, list) else []
    if any(str(v.get("source") if isinstance(v, dict) else v).startswith("/dev") for v in vols):
        got.append("volumes")
    return got or None


def named_elsewhere(ctx: ScanContext, rel: str, service: str) -> bool:
    """Whether another compose file of the project (a name holding `compose`: compose.override.yaml,
    docker-compose.gpu.yml, compose.x.vllm.nvidia.yml) defines a service of this name: compose merges the
    files it is given, so the GPUs may come from there (harbor keeps each service's NVIDIA reservation in
    such a file)."""
    for other in ctx.files:
        name = PurePosixPath(other).name
        if other == rel or "compose" not in name or not name.endswith((".yml", ".yaml")):
            continue
        text = ctx.read(other) or ""
        if service not in text or "services" not in text:
            continue
        try:
            docs = yamlio.load_all(text)
        except yamlio.YamlError:
            return True  # unread: it may be
        if any(isinstance(d.data, dict) and isinstance(d.data.get("services"), dict) and service in d.data["services"]
               for d in docs):
            return True
    return False


def device_platform(svc: dict) -> tuple[str, str] | None:
    """(platform, node) of a `devices:` entry only another platform's driver makes (`/dev/kfd`: ROCm)."""
    from vllm_kb.engine.scan.docker_run import device_node_platform

    devs = svc.get("devices")
    for d in devs if isinstance(devs, list) else []:
        if isinstance(d, str) and (plat := device_node_platform(d)):
            return plat, d.split(":")[0]
    return None
