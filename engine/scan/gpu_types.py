"""The GPU types a deployment names for its site: a Kubernetes nodeSelector
(`nvidia.com/gpu.product`, GKE's `cloud.google.com/gke-accelerator`, Karpenter's
`karpenter.k8s.aws/instance-gpu-name`), a KubeAI `resourceProfile`, SkyPilot `accelerators`,
Modal's `gpu=`. The names are kept as written; engine/check/site_gpu.py resolves them against the
GPU catalog."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.kb import deploy_tools

INSTANCE_KEYS = ("node.kubernetes.io/instance-type", "beta.kubernetes.io/instance-type")
NODE_SELECTOR_KEYS = ("nvidia.com/gpu.product", "cloud.google.com/gke-accelerator",
                      "karpenter.k8s.aws/instance-gpu-name", "gpu.nvidia.com/class",
                      "cloud.google.com/gke-tpu-accelerator")  # GKE's TPU node pools (tpu-v6e-slice)
# deployment names of accelerators other than NVIDIA GPUs (a nodeSelector value, a device plugin's resource, Ray's
# accelerator_type): the platform they run vLLM on. Strings, compiled only when a site names a type.
OTHER_ACCELERATORS = ((r"amd|mi\d{3}|radeon|instinct", "rocm"), (r"tpu", "tpu"), (r"gaudi|habana|hpu", "hpu"),
                      (r"neuron|inferentia|trainium|\binf\d|\btrn\d", "neuron"), (r"ascend|\bnpu", "npu"),
                      (r"gpu\.intel\.com|intel[-_ ]?gpu|\bxpu", "xpu"), (r"^cpu", "cpu"))
# Kubernetes device plugins' extended resources of those accelerators (a container's limits/requests)
_RESOURCE = re.compile(r"^(google\.com/tpu|amd\.com/gpu|habana\.ai/gaudi|huawei\.com/ascend[\w-]*|"
                       r"aws\.amazon\.com/neuron[\w]*|gpu\.intel\.com/[\w]+)$", re.I)


def from_pod(pod: Any) -> list[str]:
    """A pod spec's nodeSelector values that name a GPU (a machine type's: pod_machine)."""
    sel = pod.get("nodeSelector") if isinstance(pod, dict) else None
    if not isinstance(sel, dict):
        return []
    return [str(sel[k]) for k in NODE_SELECTOR_KEYS if isinstance(sel.get(k), (str, int)) and str(sel[k]).strip()]


def other_platform(name: Any) -> str | None:
    """The platform an accelerator name other than an NVIDIA GPU's says (`TPU-V6E` → tpu); None for any other."""
    if not isinstance(name, str):
        return None
    return next((plat for rx, plat in OTHER_ACCELERATORS if re.search(rx, name, re.I)), None)


def from_resources(resources: Any) -> list[str]:
    """A container's `resources` naming another accelerator's device (`google.com/tpu: 8`,
    `amd.com/gpu`, `habana.ai/gaudi`, `huawei.com/Ascend910`): the scheduler places it only where that
    device is, whatever GPU the audit was given. Nothing where it also asks for nvidia.com/gpu."""
    parts = [resources.get(k) for k in ("limits", "requests")] if isinstance(resources, dict) else []
    keys = [str(k) for part in parts if isinstance(part, dict) for k in part]
    if any(k == "nvidia.com/gpu" for k in keys):
        return []
    return list(dict.fromkeys(k for k in keys if _RESOURCE.match(k)))


def pod_machine(pod: Any) -> tuple[str, int] | None:
    """(GPU id, GPUs per machine) of the one cloud machine type a pod spec is scheduled on: its
    nodeSelector, or a required node-affinity term `In` machine types that all carry the same GPUs."""
    if not isinstance(pod, dict):
        return None
    sel = pod.get("nodeSelector")
    named = [instance_gpu(sel[k]) for k in INSTANCE_KEYS if sel.get(k) is not None] if isinstance(sel, dict) else []
    if named:  # the selector decides; the first machine type the table knows
        return next((m for m in named if m), None)
    req = (((pod.get("affinity") or {}).get("nodeAffinity") or {}).get("requiredDuringSchedulingIgnoredDuringExecution") or {})
    terms = req.get("nodeSelectorTerms") if isinstance(req, dict) else None
    found: set[tuple[str, int] | None] = set()
    for term in terms if isinstance(terms, list) else []:
        for e in (term.get("matchExpressions") or []) if isinstance(term, dict) else []:
            if isinstance(e, dict) and e.get("key") in INSTANCE_KEYS and e.get("operator") == "In":
                found.update(instance_gpu(v) for v in e.get("values") or [])
    return next(iter(found)) if len(found) == 1 else None


def instance_gpu(name: Any) -> tuple[str, int] | None:
    """A cloud machine type → (GPU id, GPUs per machine) (knowledge/deploy/cloud_instances.yaml)."""
    return deploy_tools.machine_gpu(name)


def from_kubeai_profile(profile: Any) -> list[str]:
    """`nvidia-gpu-h100:8` → ["nvidia-gpu-h100"]; `cpu:1` → ["cpu"] (KubeAI's CPU image)."""
    if not isinstance(profile, str):
        return []
    kind = profile.rpartition(":")[0] if ":" in profile else profile
    return [kind] if re.search(r"gpu|tpu|gaudi|neuron|mi\d{3}|^cpu", kind, re.I) else []


def from_modal(gpu: Any) -> list[str]:
    """`"H100:2"`, `"a10g"`, `["H100", "A100-80GB"]` (fallbacks) → the type names."""
    items = gpu if isinstance(gpu, list) else [gpu]
    out = []
    for g in items:
        if isinstance(g, str) and g.strip() and g.strip().lower() not in ("any", "auto"):
            out.append(re.sub(r":\d+\s*$", "", g.strip()))
    return out


def pods_other(data: Any) -> tuple[str, tuple] | None:
    """(the name, its path) where every pod spec of a manifest (a RayService's head and worker groups)
    that names an accelerator names one other platform's (`cloud.google.com/gke-tpu-accelerator:
    tpu-v6e-slice`, `google.com/tpu: 8`); None where none does, or any pod asks for an NVIDIA GPU
    (nvidia.com/gpu, an NVIDIA nodeSelector value) or for two platforms."""
    found: list[tuple[str, tuple]] = []
    stack: list[tuple[Any, tuple]] = [(data, ())]
    while stack:
        node, path = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("containers"), list):
                got = node.get("nodeSelector")
                sel: dict = got if isinstance(got, dict) else {}
                found += [(n, path + ("nodeSelector", k)) for k in NODE_SELECTOR_KEYS for n in from_pod({"nodeSelector": {k: sel.get(k)}})]
                for i, c in enumerate(node["containers"]):
                    res = c.get("resources") if isinstance(c, dict) else None
                    parts = [res.get(p) for p in ("limits", "requests")] if isinstance(res, dict) else []
                    if any(isinstance(p, dict) and "nvidia.com/gpu" in p for p in parts):
                        return None
                    found += [(n, path + ("containers", i, "resources")) for n in from_resources(res)]
            stack += [(v, path + (k,)) for k, v in node.items()]
        elif isinstance(node, list):
            stack += [(v, path + (i,)) for i, v in enumerate(node)]
    plats = {other_platform(n) for n, _ in found}
    if not found or None in plats or len(plats) != 1:
        return None
    return min(found, key=lambda f: ("nodeSelector" not in f[1], [str(p) for p in f[1]]))  # the selector names the generation
