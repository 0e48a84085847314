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
                      "karpenter.k8s.aws/instance-gpu-name", "gpu.nvidia.com/class")


def from_pod(pod: Any) -> list[str]:
    """A pod spec's nodeSelector values that name a GPU (a machine type's: pod_machine)."""
    sel = pod.get("nodeSelector") if isinstance(pod, dict) else None
    if not isinstance(sel, dict):
        return []
    return [str(sel[k]) for k in NODE_SELECTOR_KEYS if isinstance(sel.get(k), (str, int)) and str(sel[k]).strip()]


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
