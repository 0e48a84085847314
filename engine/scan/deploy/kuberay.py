"""KubeRay's Ray pods (RayCluster, RayService's rayClusterConfig, RayJob's rayClusterSpec): the
operator runs its own `ray start` in the Ray container of every head and worker group
(ray-operator/controllers/ray/common/pod.go; https://docs.ray.io/en/latest/cluster/kubernetes/user-guides/pod-command.html),
so an image's entrypoint never runs there — a vllm/vllm-openai Ray container without a command of
its own is a Ray node, not a `vllm serve` (unless the object asks KubeRay to keep the container's
command, `ray.io/overwrite-container-cmd: "true"`). A launch on the Ray backend from one of these
containers places its workers on the cluster's nodes: each pod is a node, and the GPUs one node
shows the engine are a pod's, the most any group gives a pod (the head usually none)."""
from __future__ import annotations

from typing import Any, Callable

_GROUPS = ("headGroupSpec", "workerGroupSpecs")


def _cluster(data: Any, path: tuple) -> tuple[dict, tuple] | None:
    """The spec holding the container's group (its headGroupSpec/workerGroupSpecs) and the path to it,
    when the container is the Ray container (the first) of a group's pod template."""
    keys = [k for k in path if isinstance(k, str)]
    if path[-2:] != ("containers", 0) or "template" not in keys or not set(_GROUPS) & set(keys):
        return None
    cut = min(path.index(g) for g in _GROUPS if g in path)
    spec: Any = data
    for p in path[:cut]:
        spec = spec[p] if isinstance(spec, (dict, list)) else None
    return (spec, path[:cut]) if isinstance(spec, dict) else None


def ray_container(data: Any, path: tuple) -> bool:
    """The Ray container of a KubeRay group, whose command KubeRay replaces with its own `ray start`."""
    if _cluster(data, path) is None:
        return False
    notes = ((data.get("metadata") or {}).get("annotations") or {}) if isinstance(data, dict) else {}
    return str(notes.get("ray.io/overwrite-container-cmd", "")).lower() != "true"


def node_gpus(data: Any, path: tuple, gpus: Callable[[Any], int | None]) -> int | None:
    """The GPUs of the cluster's largest pod (the head's and each worker group's Ray container), None
    when no group asks for one or the container is not a KubeRay Ray container; `gpus` reads a
    container's resources (kubernetes.resource_gpus)."""
    got = _cluster(data, path)
    if got is None:
        return None
    spec = got[0]
    groups = [spec.get("headGroupSpec")] + list(spec.get("workerGroupSpecs") or [])
    counts = []
    for g in groups:
        containers = (((g or {}).get("template") or {}).get("spec") or {}).get("containers") if isinstance(g, dict) else None
        if isinstance(containers, list) and containers and isinstance(containers[0], dict):
            n = gpus(containers[0].get("resources"))
            if n:
                counts.append(n)
    return max(counts) if counts else None


def head_without_num_gpus(data: Any, path: tuple) -> bool:
    """The container is the head group's Ray container and its `rayStartParams` write no `num-gpus`:
    KubeRay derives Ray's GPUs from the container's resource limits (docs/guidance/rayStartParams.md)."""
    got = _cluster(data, path)
    if got is None or "headGroupSpec" not in path or not isinstance(got[0].get("headGroupSpec"), dict):
        return False
    params = got[0]["headGroupSpec"].get("rayStartParams")
    return not (isinstance(params, dict) and "num-gpus" in params)


def head_ray_gpus(data: Any, path: tuple) -> float | None:
    """The GPUs the head group's `rayStartParams` give Ray (`num-gpus`) when the container is the head's
    Ray container; None when it is not, or the parameter is not written (Ray then counts what it sees)."""
    got = _cluster(data, path)
    if got is None or "headGroupSpec" not in path:
        return None
    params = (got[0].get("headGroupSpec") or {}).get("rayStartParams") if isinstance(got[0].get("headGroupSpec"), dict) else None
    raw = params.get("num-gpus") if isinstance(params, dict) else None
    try:
        return float(str(raw).strip().strip("'\"")) if raw is not None else None
    except ValueError:
        return None
