"""The GPU types a deployment names for its site: a Kubernetes nodeSelector
(`nvidia.com/gpu.product`, GKE's `cloud.google.com/gke-accelerator`, Karpenter's
`karpenter.k8s.aws/instance-gpu-name`), a KubeAI `resourceProfile`, SkyPilot `accelerators`,
Modal's `gpu=`. The names are kept as written; engine/check/site_gpu.py resolves them against the
GPU catalog."""
from __future__ import annotations

import re
from typing import Any

NODE_SELECTOR_KEYS = ("nvidia.com/gpu.product", "cloud.google.com/gke-accelerator",
                      "karpenter.k8s.aws/instance-gpu-name", "gpu.nvidia.com/class")


def from_pod(pod: Any) -> list[str]:
    """A pod spec's nodeSelector values that name a GPU."""
    sel = pod.get("nodeSelector") if isinstance(pod, dict) else None
    if not isinstance(sel, dict):
        return []
    return [str(sel[k]) for k in NODE_SELECTOR_KEYS if isinstance(sel.get(k), (str, int)) and str(sel[k]).strip()]


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
