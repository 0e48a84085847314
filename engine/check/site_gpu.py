"""The GPU a site's own deployment names, against the one the audit was given. A KubeAI model
pinned to `nvidia-gpu-l4` or a pod selecting `NVIDIA-A100-SXM4-80GB` runs there whatever
`--gpu` says; a site that names several types (SkyPilot `any_of`, Modal fallbacks) may run on
any of them, so its GPU facts hold only where they all agree with `--gpu`."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.kb import deploy_tools, hardware
from vllm_kb.engine.scan.gpu_types import OTHER_ACCELERATORS as _OTHER

_PREFIX = r"^(nvidia[-_ ]gpu[-_ ]|nvidia[-_ ]tesla[-_ ]|nvidia[-_ ]|tesla[-_ ]|gpu[-_ ])"


def _catalog_entry(name: str, gpus: list[dict]) -> dict | None:
    named = deploy_tools.load("cloud_instances").get("accelerators", {}).get(name.strip().lower().replace("_", "-"))
    if named:  # a cloud's accelerator name whose card the bare name does not tell (nvidia-tesla-a100: 40 GB)
        return hardware.find_gpu(named, gpus)
    bare = re.sub(_PREFIX, "", name.strip(), flags=re.I)
    # nodeSelector products spell the form factor (NVIDIA-A100-SXM4-80GB) the catalog names leave out
    plain = re.sub(r"-(sxm\d?|pcie|hbm\d?e?)(?=-|$)", "", bare, flags=re.I)
    return hardware.find_gpu(bare, gpus) or hardware.find_gpu(plain, gpus) or hardware.find_gpu(name, gpus)


def resolve(types: list[str], current: dict | None, gpus: list[dict], per_node: int | None = None) -> tuple[str | None, dict | None, bool]:
    """(platform when the types name another accelerator, the GPU facts to use, whether they
    changed). `current`: the facts from --gpu (name, count, …); `per_node`: the GPUs of the cloud
    machine type the deployment names, which it has whatever --gpu counts."""
    if not types:
        return None, current, False
    for name in types:
        for rx, plat in _OTHER:
            if re.search(rx, name, re.I):
                if name.lower() == "amd.com/gpu" and hardware.is_amd(current):
                    return plat, current, False  # an AMD device request names no card: --gpu's AMD card holds
                return plat, None, True
    entries = [_catalog_entry(t, gpus) for t in types]
    if current and any(e is not None and e["name"] == current.get("name") for e in entries):
        if per_node and len(entries) == 1 and current.get("count") != per_node:
            return None, {**current, "count": per_node}, True
        return None, current, False  # --gpu is one of the GPUs the deployment accepts
    if len(entries) != 1 or entries[0] is None:
        return None, None, True  # an unknown type, or a choice of several: the GPU is not known
    count = per_node or (current or {}).get("count") or 1
    # the same facts --gpu would give for this card (hardware's entry → Hardware.facts)
    named = hardware.Hardware(source="deployment", gpu=hardware.facts_from_entry(entries[0], count))
    return None, named.facts()["gpu"], True


def apply(facts: dict[str, Any], types: list[str], gpus: list[dict], per_node: int | None = None) -> None:
    """Put the site's own GPU in `facts` (gpu, site.platform, site.gpu_from)."""
    plat, gpu, changed = resolve(types, facts.get("gpu"), gpus, per_node)
    if not changed:
        return
    if plat:
        facts["site"]["platform"] = plat
    if gpu is None:
        facts.pop("gpu", None)
    else:
        facts["gpu"] = gpu
    facts["site"]["gpu_from"] = ", ".join(types)
