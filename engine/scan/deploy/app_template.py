"""Charts that write a pod's containers as a map (bjw-s app-template, the chart of most home-lab
Flux and Argo clusters: `controllers.<name>.containers.<name>: {image: {repository, tag}, command,
args}`), read like a Kubernetes container: the image as `repository:tag`, and /dev/shm from the
chart's `persistence` items mounted there (globalMounts, or advancedMounts of this controller and
container), since the pod spec the chart renders is not in the values."""
from __future__ import annotations

from typing import Any


def map_containers(path: tuple, node: dict) -> list[tuple[tuple, dict]]:
    """The containers of a `containers:` map: entries that name an image or a command."""
    return [(path + (str(k),), c) for k, c in node.items()
            if isinstance(c, dict) and ("image" in c or "command" in c or "args" in c)]


def in_map(path: tuple) -> bool:
    """Whether a container's path is an entry of a `containers:` map (not a list item)."""
    return len(path) >= 2 and path[-2] in ("containers", "initContainers") and isinstance(path[-1], str)


def env_map(env: Any) -> list[tuple[str, str]]:
    """`env: {NAME: value}` (or `NAME: {value: …}`) as (name, value); secret and field references,
    whose values are not in the file, are left out."""
    if not isinstance(env, dict):
        return []
    out = []
    for k, v in env.items():
        v = v.get("value") if isinstance(v, dict) else v
        if isinstance(v, (str, int, float, bool)):
            out.append((str(k), str(v).lower() if isinstance(v, bool) else str(v)))
    return out


def _values(data: dict) -> dict:
    """The chart values: a HelmRelease's `spec.values`, else the document itself."""
    spec = data.get("spec")
    return spec["values"] if isinstance(spec, dict) and isinstance(spec.get("values"), dict) else data


def shm(data: dict, path: tuple) -> dict:
    """`shm_size` (or `ipc`) for a container at `…controllers.<c>.containers.<n>` from the chart's
    persistence items: a memory or disk emptyDir mounted at /dev/shm replaces the runtime's 64 MiB
    (its sizeLimit, else unbounded); a hostPath there is the node's own; anything else is unknown."""
    keys = [p for p in path if isinstance(p, str)]
    try:
        i = len(keys) - 1 - keys[::-1].index("controllers")
        controller, container = keys[i + 1], keys[-1]
    except (ValueError, IndexError):
        return {}
    values = _values(data)
    pod = ((values.get("controllers") or {}).get(controller) or {}).get("pod") if isinstance(values.get("controllers"), dict) else None
    out: dict = {"ipc": "host"} if isinstance(pod, dict) and pod.get("hostIPC") is True else {}
    for item in (values.get("persistence") or {}).values() if isinstance(values.get("persistence"), dict) else []:
        if isinstance(item, dict) and _mounts_shm(item, controller, container):
            kind = str(item.get("type") or "")
            if kind == "emptyDir":
                out["shm_size"] = str(item["sizeLimit"]) if item.get("sizeLimit") else "unbounded"
            elif kind == "hostPath":
                out["shm_size"] = "unbounded"
            else:
                out["shm_size"] = "unknown"
    return out


def _mounts_shm(item: dict, controller: str, container: str) -> bool:
    paths = [m.get("path") for m in item.get("globalMounts") or [] if isinstance(m, dict)]
    adv = item.get("advancedMounts")
    if isinstance(adv, dict) and isinstance(adv.get(controller), dict):
        paths += [m.get("path") for m in adv[controller].get(container) or [] if isinstance(m, dict)]
    return any(isinstance(p, str) and p.rstrip("/") == "/dev/shm" for p in paths)
