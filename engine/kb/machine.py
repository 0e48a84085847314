"""The machine an audit is for: the `--gpu` spec, or this machine asked through NVML (pynvml).
No driver, no pynvml or an NVML error is a fact ("no GPU visible"), never a crash."""
from __future__ import annotations

import os
from typing import Any

from vllm_kb.engine.kb.hardware import Hardware, arch_of, find_gpu, parse_spec, split_spec


def cpu_cores() -> int | None:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count()


def probe(gpus: list[dict], nvml: Any = None) -> Hardware:
    """Ask NVML what this machine has. `nvml` is the pynvml module (a fake in tests)."""
    cores = cpu_cores()
    if nvml is None:
        try:
            import pynvml  # the nvidia-ml-py distribution
        except ImportError:
            return Hardware(source="NVML", cpu_cores=cores, note="pynvml (nvidia-ml-py) is not installed; no GPU information",
                            reason="no_pynvml")
        nvml = pynvml
    try:
        nvml.nvmlInit()
    except Exception as e:  # NVMLError_LibraryNotFound, _DriverNotLoaded, …
        return Hardware(source="NVML", cpu_cores=cores, note=f"no NVIDIA driver / no GPU visible ({_nvml_reason(e)})",
                        reason="no_driver", detail=_nvml_reason(e))
    try:
        n = nvml.nvmlDeviceGetCount()
        if n == 0:
            return Hardware(source="NVML", cpu_cores=cores, note="NVML found no GPU", reason="no_devices")
        devices = []
        for i in range(n):
            h = nvml.nvmlDeviceGetHandleByIndex(i)
            name = nvml.nvmlDeviceGetName(h)
            name = name.decode() if isinstance(name, bytes) else str(name)
            info = nvml.nvmlDeviceGetMemoryInfo(h)
            mem = info.total / 2**30
            free = getattr(info, "free", None)
            major, minor = nvml.nvmlDeviceGetCudaComputeCapability(h)
            devices.append({"name": name, "memory_gib": round(mem, 1), "compute_capability": float(f"{major}.{minor}"), "nvlink": _nvlink(nvml, h),
                            "free_gib": round(free / 2**30, 2) if isinstance(free, int) else None})
        driver = nvml.nvmlSystemGetDriverVersion()
        driver = driver.decode() if isinstance(driver, bytes) else str(driver)
        try:
            cv = int(nvml.nvmlSystemGetCudaDriverVersion())
            cuda = f"{cv // 1000}.{(cv % 1000) // 10}"
        except Exception:
            cuda = None
    except Exception as e:
        return Hardware(source="NVML", cpu_cores=cores, note=f"NVML error: {_nvml_reason(e)}", reason="nvml_error",
                        detail=_nvml_reason(e))
    finally:
        try:
            nvml.nvmlShutdown()
        except Exception:
            pass
    first = devices[0]
    entry = find_gpu(first["name"], gpus)
    cc = first["compute_capability"]
    gpu = {
        "name": first["name"], "id": entry["id"] if entry else None, "arch": arch_of(cc), "count": len(devices),
        "memory_gib": first["memory_gib"], "compute_capability": cc, "fp8": cc >= 8.9, "fp4": cc >= 10.0,
        "nvlink": first["nvlink"] if first["nvlink"] is not None else (bool(entry.get("nvlink")) if entry else None),
        **({"nvls": True} if entry and entry.get("nvls") else {})}
    frees = [d["free_gib"] for d in devices if d["free_gib"] is not None]
    if len(frees) == len(devices):  # what the fullest GPU has free now: other processes' memory
        gpu["free_gib"] = min(frees)
    note = reason = None
    if len({d["name"] for d in devices}) > 1:
        note, reason = "mixed GPU models; facts describe GPU 0", "mixed"
    return Hardware(source="NVML", gpu=gpu, cpu_cores=cores, driver=driver, cuda=cuda, note=note, devices=devices,
                    reason=reason)


def _nvlink(nvml, handle) -> bool | None:
    links = getattr(nvml, "NVML_NVLINK_MAX_LINKS", 18)
    seen = False
    for link in range(links):
        try:
            state = nvml.nvmlDeviceGetNvLinkState(handle, link)
        except Exception:
            break
        seen = True
        if state:
            return True
    return False if seen else None


def _nvml_reason(e: Exception) -> str:
    return str(e) or type(e).__name__


def host_memory() -> float | None:
    """This machine's RAM in GiB (Linux /proc/meminfo; None elsewhere)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return round(int(line.split()[1]) / 2**20, 1)
    except (OSError, ValueError, IndexError):
        return None
    return None


def resolve(gpus: list[dict], spec: str | None, nvml: Any = None) -> Hardware:
    """The machine an audit is for: `--gpu SPEC`, or the local probe for `auto` / no spec. The
    host's RAM and CPU cores come from the spec, or from this machine only when the probe is
    asked for and finds its GPUs: a machine without them is the one auditing, not the one the
    project runs on, so its own cores and memory never reach a finding."""
    head, host, cpus = split_spec(spec) if spec else ("auto", None, None)
    if spec and head.lower() != "auto":
        return parse_spec(spec, gpus)
    hw = probe(gpus, nvml=nvml)
    local = hw.gpu is not None
    hw.host_memory_gib = host if host is not None else (host_memory() if local else None)
    if cpus is not None:
        hw.cpu_cores = cpus
    elif not local:
        hw.cpu_for_checks = False
    return hw
