"""Hardware facts: what a `--gpu "H100-80GB x8"` spec names, looked up in the GPU table (the local
NVML probe and the choice between the two live in engine/kb/machine.py)."""
from __future__ import annotations

import difflib
import functools
import re
from dataclasses import dataclass, field
from typing import Any

from vllm_kb.engine.kb import deploy_tools, gpu_mix
from vllm_kb.engine.kb.errors import UsageError


def arch_of(cc: float) -> str:
    if cc >= 10.0:
        return "blackwell"
    if cc >= 9.0:
        return "hopper"
    if cc >= 8.9:
        return "ada"
    if cc >= 8.0:
        return "ampere"
    if cc >= 7.5:
        return "turing"
    if cc >= 7.0:
        return "volta"
    return "pascal"


@dataclass
class Hardware:
    source: str  # how we know: "--gpu …", "NVML", "none"
    gpu: dict[str, Any] | None = None
    cpu_cores: int | None = None
    driver: str | None = None
    cuda: str | None = None
    note: str | None = None  # English, for the report's JSON; faces word it from `reason`
    devices: list[dict[str, Any]] = field(default_factory=list)
    # why the facts are missing or partial, as a code faces translate (knowledge/i18n.yaml
    # gpu.reason.<code>): no_pynvml | no_driver | no_devices | nvml_error | spec_none | mixed | mixed_spec;
    # with a GPU, how a spec outside the table was read (hw.<code>): custom | nearest
    reason: str | None = None
    detail: str = ""  # the driver's own words, for no_driver / nvml_error
    host_memory_gib: float | None = None  # one node's RAM: `--gpu "…, host 1TiB"`, or /proc/meminfo with auto
    # whether cpu_cores describe the machine the project runs on: a spec's `cpus N`, or this
    # machine when the probe finds its GPUs — never a GPU-less auditing machine's own cores
    cpu_for_checks: bool = True

    def facts(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.gpu:
            out["gpu"] = {k: v for k, v in self.gpu.items() if k in ("name", "arch", "count", "memory_gib", "compute_capability", "fp8", "fp4", "nvlink", "free_gib", "unified_memory", "nvls", "devices_gib", "vendor", "gfx", "fp8_fnuz", "driver_reserved_gib") and v is not None}
            if self.cuda:  # the newest CUDA the driver runs (NVML, or `--gpu "…, cuda 12.4"`)
                out["gpu"]["driver_cuda"] = self.cuda
            if self.driver and (m := re.match(r"(\d{3})\.", self.driver + ".")):  # NVML, or `driver 535.104`
                out["gpu"]["driver_branch"] = int(m.group(1))
        if self.cpu_cores and self.cpu_for_checks:
            out["cpu"] = {"cores": self.cpu_cores}
        if self.host_memory_gib:
            out["host"] = {"memory_gib": self.host_memory_gib}
        return out

    def describe(self) -> str:
        if not self.gpu:
            return self.note or "no GPU information"
        g = self.gpu
        return f"{g['name']} x {int(g['count'])} ({g['memory_gib']:g} GiB each, {g['arch']}, {chip_label(g)})"


def chip_label(g: dict) -> str:
    """sm_90 for an NVIDIA GPU, the gcnArchName (gfx942) for an AMD one, which has no CUDA compute capability."""
    if g.get("gfx"):
        return str(g["gfx"])
    cc = g.get("compute_capability")
    return f"sm_{_sm(float(cc))}" if isinstance(cc, (int, float)) else "?"


def is_amd(gpu: dict | None) -> bool:
    """An AMD Instinct GPU (vLLM's ROCm platform): the checks written for CUDA do not judge it."""
    return gpu is not None and gpu.get("vendor") == "amd"


@functools.lru_cache(maxsize=4096)
def _norm(s: str) -> str:
    # memoised: find_gpu normalises every catalog name at each lookup (~1,400 calls an audit)
    return re.sub(r"[^a-z0-9]", "", str(s).lower().replace("nvidia", "").replace("geforce", "").replace("tesla", ""))


_COUNT = [
    re.compile(r"^\s*(?P<n>\d+)\s*[x×*]\s*(?P<g>.+?)\s*$", re.I),
    re.compile(r"^\s*(?P<g>.+?)\s*(?:[x×*:]|\s)\s*(?P<n>\d+)\s*$", re.I),
]


_SIZE = re.compile(r"^\s*(?:host|ram|mem|memory)\s*[=:]?\s*(\d+(?:\.\d+)?)\s*([kmgtp]?)(i?)b?\s*$", re.I)
_UNIT_GIB = {"": 1.0, "k": 2.0**-20, "m": 2.0**-10, "g": 1.0, "t": 2.0**10, "p": 2.0**20}
_DRIVER_CUDA = re.compile(r"^\s*cuda\s*[=:]?\s*(\d{2})\.(\d)\s*$", re.I)
_DRIVER = re.compile(r"^\s*driver\s*[=:]?\s*(\d{3}(?:\.\d+){0,2})\s*$", re.I)
_CPUS = re.compile(r"^\s*(?:cpus?|cores?)\s*[=:]?\s*(\d+)\s*$|^\s*(\d+)\s*(?:cpus?|cores?|cpu\s+cores)\s*$", re.I)


def driver_cuda(spec: str) -> str | None:
    """The `cuda 12.4` part of a spec: the CUDA version the driver reports (nvidia-smi's "CUDA Version")."""
    for p in re.split(r"[,;]", spec)[1:]:
        m = _DRIVER_CUDA.match(p)
        if m:
            return f"{int(m.group(1))}.{m.group(2)}"
    return None


def driver_version(spec: str) -> str | None:
    """The `driver 535.104.05` part of a spec: the host's NVIDIA driver (nvidia-smi's "Driver Version")."""
    for p in re.split(r"[,;]", spec)[1:]:
        m = _DRIVER.match(p)
        if m:
            return m.group(1)
    return None


def split_spec(spec: str) -> tuple[str, float | None, int | None]:
    """'H100-80GB x8, host 1TiB, cpus 64' → ('H100-80GB x8', 1024.0, 64): the GPUs, one node's RAM
    in GiB (GB and GiB both read as powers of two, as `free -g` and cloud listings use them) and
    its CPU cores. A `cuda 12.4` part (the driver's CUDA) is read by driver_cuda()."""
    head, *parts = [p.strip() for p in re.split(r"[,;]", spec)]
    host = cpus = None
    for p in parts:
        if _DRIVER_CUDA.match(p) or _DRIVER.match(p):
            continue
        c = _CPUS.match(p)
        if c:
            cpus = int(c.group(1) or c.group(2))
            if cpus < 1:
                raise UsageError(f"the CPU core count must be positive in --gpu {spec!r}")
            continue
        m = _SIZE.match(p)
        if not m:
            raise UsageError(f"cannot read {p!r} in --gpu {spec!r}; write the host's RAM as `host 512GiB` (or 1TiB), "
                             "its CPU cores as `cpus 64`, "
                             "the driver's CUDA as `cuda 12.4` and the driver as `driver 535.104`")
        n = float(m.group(1)) * _UNIT_GIB[m.group(2).lower()]
        if n <= 0:
            raise UsageError(f"the host's RAM must be positive in --gpu {spec!r}")
        host = round(n, 1)
    return head, host, cpus


def parse_spec(spec: str, gpus: list[dict]) -> Hardware:
    """'H100-80GB x8', '8xH100', 'A100-40GB', 'L40S:4', a cloud machine type ('g5.12xlarge',
    'Standard_NC24ads_A100_v4', 'a3-highgpu-8g'), 'none'; each may end with ', host 1TiB'."""
    head, host, cpus = split_spec(spec)
    hw = _parse_gpus(head, spec, gpus)
    hw.host_memory_gib = host
    hw.cpu_cores = cpus
    hw.cuda = driver_cuda(spec)
    hw.driver = driver_version(spec)
    return hw


def _parse_gpus(text: str, spec: str, gpus: list[dict]) -> Hardware:
    text = text.strip()
    if "+" in text:  # different cards, in the order the ranks take them (engine/kb/gpu_mix.py)
        parts = [g for g in (_parse_gpus(p, spec, gpus).gpu for p in text.split("+")) if g]
        return Hardware(source=f"--gpu {spec}", gpu=gpu_mix.combine(parts), reason="mixed_spec", devices=gpu_mix.devices(parts),
                        note="mixed GPU models: each rank is sized by the card it takes, in the order written")
    if text.lower() in ("none", "cpu", "no-gpu", "nogpu"):
        return Hardware(source=f"--gpu {spec}", note="no GPU (as given by --gpu)", reason="spec_none")
    count, name = 1, text
    machine = deploy_tools.machine_gpu(text)
    if machine:  # a cloud machine type: its GPU and how many it has (knowledge/deploy/cloud_instances.yaml)
        count, name = machine[1], machine[0]
    for rx in _COUNT if not machine else ():
        m = rx.match(text)
        if m and not re.fullmatch(r".*\d+\s*gb", m.group("g") + "x" + m.group("n"), re.I):
            cand = m.group("g")
            if lookup_gpu(cand, gpus)[0] is not None:
                count, name = int(m.group("n")), cand
                break
    entry, how = lookup_gpu(name, gpus)
    if entry is None:
        known = ", ".join(g["id"] for g in gpus)
        raise UsageError(f"unknown GPU {name!r} in --gpu {spec!r}; describe it by its memory and compute capability "
                         f"(--gpu \"{name} <memory>GB sm<NN>\", e.g. \"24GiB cc8.9 x2\"), or name one of: {known}")
    if count < 1 or count > 1024:
        raise UsageError(f"GPU count must be 1…1024 in --gpu {spec!r}")
    gpu = facts_from_entry(entry, count)
    hw = Hardware(source=f"--gpu {spec}", gpu=gpu, note=entry.get("_note"))
    if how == "nearest":
        hw.reason, hw.detail = "nearest", name
        hw.note = (f"{name!r} is not in the GPU table: read as the {entry['name']}, the closest name "
                   f"({entry['memory_gib']:g} GiB, {chip_label(entry)}); describe it as "
                   f"\"<memory>GB sm<cc>\" to be exact")
    elif how == "custom":
        hw.reason, hw.detail = "custom", name
        hw.note = f"a GPU described by its memory and compute capability ({name!r})"
    return hw


# a GPU outside the table, described by its memory and compute capability: "24GiB cc8.9",
# "custom 16GB sm_86", "RTX A3000 Laptop 12GB sm86", "sm_120 16GB"
_CUSTOM_MEM = re.compile(r"(?i)(?<![\d.])(\d+(?:\.\d+)?)\s*(?:gi?b|g)(?![a-z])")
_CUSTOM_CC = re.compile(r"(?i)(?:\bcc|\bsm|compute[-_ ]?capability)[-_ ]?(\d{1,3})(?:\.(\d))?(?!\d)")


# memory written into a card's name: "A100-80GB", "RTX-4090-48G", "H20 96GiB"
_NAMED_MEM = re.compile(r"(?i)[-_ ]?(?<![\d.])(\d+(?:\.\d+)?)\s*g(?:i?b)?(?![a-z0-9])")


def _sm(cc: float) -> str:
    return f"{cc:.1f}".replace(".", "")


def custom_gpu(text: str) -> dict | None:
    """A catalog-shaped entry for a GPU given as memory + compute capability, or None."""
    mem, cc = _CUSTOM_MEM.search(text), _CUSTOM_CC.search(text)
    if not mem or not cc:
        return None
    major, minor = cc.group(1), cc.group(2)
    if minor is not None:
        capability = float(f"{major}.{minor}")
    elif len(major) == 1 or major in ("10", "11", "12", "13"):  # cc9, cc12: a whole major (no sm_1x exists)
        capability = float(major)
    else:  # sm86 → 8.6, sm_120 → 12.0
        capability = float(f"{major[:-1]}.{major[-1]}")
    gib = float(mem.group(1))
    if not (3.0 <= capability <= 13.0) or not (0 < gib <= 4096):
        return None
    label = _CUSTOM_CC.sub("", _CUSTOM_MEM.sub("", text)).strip(" -_,")
    label = re.sub(r"(?i)^(custom|gpu)$", "", label).strip()
    return {"id": "custom", "name": f"{label or 'GPU'} ({gib:g} GiB, sm_{_sm(capability)})", "arch": arch_of(capability),
            "compute_capability": capability, "memory_gib": gib, "fp8": capability >= 8.9, "fp4": capability >= 10.0,
            "nvlink": False}


def lookup_gpu(name: str, gpus: list[dict]) -> tuple[dict | None, str | None]:
    """The catalog entry for `name` (how: None), a GPU described by memory and compute capability
    (custom), or the entry with the closest name (nearest) — None when nothing is close."""
    entry = find_gpu(name, gpus)
    if entry is not None:
        return entry, None
    custom = custom_gpu(name)
    if custom is not None:
        return custom, "custom"
    key = _norm(name)
    if len(key) < 3 or key.isdigit():
        return None, None
    names: dict[str, dict] = {}
    for g in gpus:
        for a in [g["id"], g["name"], *g.get("aliases", [])]:
            names.setdefault(_norm(a), g)
    mem = _NAMED_MEM.search(name)
    if mem:  # a name that states its memory is never read as a card with other memory
        gib = float(mem.group(1))
        names = {k: g for k, g in names.items() if abs(float(g["memory_gib"]) - gib) <= max(4.0, 0.06 * gib)}
    close = difflib.get_close_matches(key, list(names), n=1, cutoff=0.8)
    return (names[close[0]], "nearest") if close else (None, None)


def find_gpu(name: str, gpus: list[dict]) -> dict | None:
    key = _norm(name)
    if not key:
        return None
    mem = _NAMED_MEM.search(name)
    exact = [g for g in gpus if key in {_norm(a) for a in [g["id"], g["name"], *g.get("aliases", []), *g.get("nvml_names", [])]}]
    if exact:
        return exact[0]
    if mem:
        gib = float(mem.group(1))
        stem = _norm(_NAMED_MEM.sub("", name))
        near = lambda g: abs(float(g["memory_gib"]) - gib) <= max(4.0, 0.06 * gib)
        named = lambda g: stem in {_norm(a) for a in [g["id"], g["name"], *g.get("aliases", [])]}
        # a card named exactly (RTX 4060 8GB) before one whose name only starts so (RTX 4060 Ti 8GB)
        for g in gpus:
            if named(g) and near(g):
                return g
        for g in gpus:
            if _norm(g["id"]).startswith(stem) and near(g):
                return g
        # a card the table has, with memory it does not list (the 48 GB RTX 4090 boards sold in China):
        # that chip with the memory the name states, never a smaller card whose name looks alike
        for g in gpus:
            if named(g) and 0 < gib <= 4096:
                return {**{k: v for k, v in g.items() if k != "torch_total_gib"},  # measured for the listed size only
                        "name": f"{g['name']} ({gib:g} GiB as named)", "memory_gib": gib,
                        "_note": f"{name!r}: the {g['name']} with {gib:g} GiB, as the name states (the table lists "
                                 f"{float(g['memory_gib']):g} GiB)"}
    return None


def facts_from_entry(entry: dict, count: int) -> dict:
    # an AMD GPU has no CUDA compute capability: it carries its vendor and gcnArchName instead
    cc = entry.get("compute_capability")
    return {
        "name": entry["name"], "id": entry["id"], "arch": entry["arch"], "count": count,
        "memory_gib": float(entry["memory_gib"]), **({"compute_capability": float(cc)} if cc is not None else {}),
        "fp8": bool(entry.get("fp8")), "fp4": bool(entry.get("fp4")), "nvlink": bool(entry.get("nvlink")),
        **{k: True for k in ("unified_memory", "nvls", "fp8_fnuz") if entry.get(k)},
        # what torch sees of the card where the catalog knows it: the budget's total (engine/check/memory/budget.py)
        **({"driver_reserved_gib": round(float(entry["memory_gib"]) - float(entry["torch_total_gib"]), 2)}
           if entry.get("torch_total_gib") else {}),
        **({"vendor": entry["vendor"], "gfx": entry["gfx"]} if entry.get("vendor") == "amd" else {}),
    }
