"""The accelerator a site runs on (a `device` argument, the image, another platform's runtime
variables) and the GPUs its environment makes visible (CUDA_VISIBLE_DEVICES, and the NVIDIA
runtime's NVIDIA_VISIBLE_DEVICES in a container started without a GPU request)."""
from __future__ import annotations

import re

from vllm_kb.engine.kb import plugins as kb_plugins
# what decides the platform lives with the scan, which also reads it from a project Dockerfile (scan/image_platform.py)
from vllm_kb.engine.scan.platform_of import PLATFORM_PLUGINS, platform, platform_why  # noqa: F401

# a local version label of vLLM's CPU wheels (`vllm==0.6.3.post1+cpu`): setup.py appends it when
# VLLM_TARGET_DEVICE is cpu
_CPU_LABEL = re.compile(r"\+(?:[0-9a-z]+\.)*cpu(?:\.|\b)", re.I)


def cpu_build(pin_text: str | None, env: dict) -> str | None:
    """How the project says it runs vLLM's CPU build: "proof" for a `+cpu` pin or
    VLLM_TARGET_DEVICE=cpu (the variable setup.py builds the CPU backend for); "hint" for
    VLLM_CPU_KVCACHE_SPACE alone (only the CPU backend reads it, but a GPU launch may carry it
    unused; with `--gpu none` facts.py takes it as proof: only the CPU build starts without a GPU);
    else None. `--gpu none` alone says nothing about the build."""
    if pin_text and _CPU_LABEL.search(pin_text):
        return "proof"
    if str(env.get("VLLM_TARGET_DEVICE", "")).strip().lower() == "cpu":
        return "proof"
    return "hint" if "VLLM_CPU_KVCACHE_SPACE" in env else None


def plugin_quantizations(plat: str | None, plugins: frozenset | set | None = None) -> frozenset[str]:
    """The quantization methods the platform's own plugin (vllm-ascend on an NPU) or a plugin the project
    installs registers with vLLM (`ascend`): names no vLLM release lists, which vLLM takes once it loads them."""
    names = set(plugins or ()) | {pkg for pkg, p in PLATFORM_PLUGINS.items() if p == plat}
    table = kb_plugins.known()
    return frozenset(m for n in names if n in table for m in table[n].quantization)


def _count_ids(ids: str | None) -> int | None:
    if ids is None or not ids.strip() or "$" in ids:
        return None
    return len([d for d in ids.split(",") if d.strip() and d.strip() != "-1"])


def visible_gpus(env: dict[str, str], container: dict | None) -> int | None:
    """CUDA_VISIBLE_DEVICES; in a container started by Docker or compose without a GPU request,
    also NVIDIA_VISIBLE_DEVICES, the devices the NVIDIA runtime mounts (not `all`/`none`/`void`:
    every GPU, or none of them through this variable)."""
    seen = [_count_ids(env.get("CUDA_VISIBLE_DEVICES"))]
    nvd = env.get("NVIDIA_VISIBLE_DEVICES")
    if container and container.get("tool") in ("compose", "docker run") and container.get("gpus") is None \
            and nvd is not None and nvd.strip().lower() not in ("all", "none", "void", ""):
        seen.append(_count_ids(nvd))
    known = [n for n in seen if n is not None]
    return min(known) if known else None


def cuda_ids_beyond(env: dict[str, str], container: dict | None, request: int | None) -> dict | None:
    """CUDA_VISIBLE_DEVICES set inside a container naming an index past the GPUs it is given: the
    NVIDIA runtime numbers a container's GPUs 0..N-1 whatever the host called them, and CUDA keeps
    only the entries before the first index that is not one of them (vLLM #9865:
    NVIDIA_VISIBLE_DEVICES=2,3 with CUDA_VISIBLE_DEVICES=2,3 leaves none: NVMLError_InvalidArgument).
    N from the manifest's GPU request, else a Docker/compose NVIDIA_VISIBLE_DEVICES list. Nothing
    for UUIDs, MIG names, variables, repeats, or a container whose GPUs are all the machine's.
    Only a variable the container's own environment sets (-e, compose environment:, a pod's env:):
    one the host's shell exports never reaches the container. Nor a privileged container or one
    handed device nodes: those see GPUs beyond the request (the runtime's own numbering no longer
    bounds the indices)."""
    ids = env.get("CUDA_VISIBLE_DEVICES")
    if not container or ids is None or "$" in ids or "CUDA_VISIBLE_DEVICES" not in (container.get("env_names") or ()):
        return None
    if container.get("privileged") or set(container.get("device_opts") or ()) & {"--privileged", "privileged", "--device", "devices"}:
        return None
    mounted = request
    nvd = env.get("NVIDIA_VISIBLE_DEVICES")
    if mounted is None and container.get("tool") in ("compose", "docker run") and container.get("gpus") is None \
            and nvd is not None and nvd.strip().lower() not in ("all", "none", "void", ""):
        mounted = _count_ids(nvd)
    parts = [p.strip() for p in ids.split(",") if p.strip()]
    if not mounted or not parts or not all(p.isdigit() for p in parts) or len(set(parts)) != len(parts):
        return None
    shown = next((i for i, p in enumerate(parts) if int(p) >= mounted), None)
    if shown is None:
        return None
    return {"ids": ",".join(parts), "mounted": mounted, "shown": shown}

