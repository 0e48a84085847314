"""Whether the release's published build runs on the GPU at all, from knowledge/vllm/cuda_builds.yaml
(tools/vllm_cuda_builds.py): the compute capabilities its kernels were compiled for (a cubin built
for X.y also runs on X.z, z ≥ y, so an RTX 5090's 12.0 needs a 12.x entry) and the CUDA of the torch
it runs with. A GPU newer than the build stops at the first kernel with "no kernel image is
available for execution on the device" (torch first warns "sm_120 is not compatible with the current
PyTorch installation"). The wheel runs with the torch PyPI serves for the release's pin; the
vllm/vllm-openai image with torch for the image's own CUDA. A source build, another vendor's image or
an unknown GPU gives nothing: never a guess."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.kb import deploy_tools
from vllm_kb.engine.kb.versions import Version, contains, parse, try_parse
from vllm_kb.engine.scan import image_tables

# what an install of vLLM at a version-choice basis (engine/scan/pins.py VersionChoice.basis) runs;
# not a range (`vllm>=0.10` on a V100 allows 0.19.1, which runs), nor a CUDA variant (`+cu129`)
WHEEL = frozenset({"pin", "unbounded", "none", "cli", "build", "executable"})
# an image tagged with its version; a nightly tagged with its day holds main's code of that day
IMAGE = frozenset({"image"})
# torch's own kernels for Blackwell and newer (sm_100, sm_120) need a CUDA 12.8 build: pytorch's
# .ci/manywheel/build_cuda.sh sets TORCH_CUDA_ARCH_LIST up to 9.0 for its CUDA 12.4/12.6 wheels, with 10.0 and
# 12.0 from CUDA 12.8 (the printout "The current PyTorch install supports CUDA capabilities sm_50 … sm_90")
TORCH_NEW = (12, 8)
# the first release PyPI holds an aarch64 wheel of (vllm-0.10.2-cp38-abi3-manylinux2014_aarch64.whl,
# 2025-09-16; 0.9.0-0.10.1.1 ship x86_64 wheels only, https://pypi.org/simple/vllm/; 0.12.0 has one too,
# manylinux_2_31, whatever vLLM #30065's pip found): before it, pip on an Arm host builds the sdist
FIRST_AARCH64_WHEEL = parse("0.10.2")
# the first torch release with a CUDA 12.8 wheel on any index (PyTorch 2.7.0's release notes: "pre-built wheels for
# CUDA 12.8"; 2.6.0 has cu118/cu124/cu126 wheels only): a vLLM wheel pinning an earlier torch has no Blackwell torch
TORCH_FIRST_CU128 = Version("2.7.0")


def _cuda(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split("."))


def covers(kernels: list[float], cc: float) -> bool:
    major, minor = int(cc), round(cc * 10) % 10
    return any(int(a) == major and round(a * 10) % 10 <= minor for a in kernels)


def _row(table: dict, v: Version) -> dict | None:
    """The build of release `v`: its row, else the nearest scanned release before it; None before
    the first scanned release (its setup.py build is not read: unknown, not the next one's kernels)."""
    rows = [r for r in table.get("rows") or [] if parse(r["release"]) <= v]
    return rows[-1] if rows else None


def _state(table: dict, v: Version, cc: float, kind: str, arm: bool = False) -> tuple[bool, bool, dict] | None:
    row = _row(table, v)
    if row is None:
        return None
    # the pipeline's arch list is its x86_64 build's: an Arm-hosted GPU (DGX Spark's GB10) got no wheel of
    # those releases (aarch64 wheels came later), so pip builds the sdist, whose CMakeLists list holds
    kernels = [a for a in row["kernels"]
               if arm or not any(a in p["without"] and contains(p["vllm"], str(v)) for p in table.get("pipeline") or [])]
    torch_cuda = row["torch_cuda"] if kind == "wheel" else row["cuda"]
    torch_ok = cc < 10.0 or _cuda(torch_cuda) >= TORCH_NEW
    return covers(kernels, cc), torch_ok, {**row, "torch_cuda": torch_cuda}


def _fix(table: dict, v: Version, cc: float, kind: str, ok_now: bool, arm: bool = False) -> str | None:
    """The nearest release whose build runs: the first after `v` (a GPU newer than the build) or
    the last before it (a GPU the build dropped)."""
    candidates = sorted({parse(r["release"]) for r in table.get("rows") or []}
                        | {parse(s.lstrip("<>=!~ ")) for p in table.get("pipeline") or [] for s in p["vllm"].split(",")})
    runs = [c for c in candidates if (st := _state(table, c, cc, kind, arm)) and st[0] and st[1]]
    later = [c for c in runs if c > v]
    if later and not ok_now:
        return ">=" + str(later[0])
    earlier = [c for c in runs if c < v]
    return "<=" + str(earlier[-1]) if earlier else None


def vendor_torch_facts(facts: dict, basis: str | None) -> dict[str, Any]:
    """`image_torch_ok`: whether the torch that a vendor image's build holds (knowledge/deploy/
    vendor_images.yaml `torch`: lmcache/vllm-openai:nightly-2025-06-24 has 2.7.0+cu126) has kernels for the
    GPU. The image's vLLM runs on that torch whatever its own kernels cover: a torch wheel built for CUDA
    below 12.8 has no sm_100/sm_120 code, so its first kernel on a Blackwell GPU stops the start. Only an
    image a row names is judged, and only where the site runs the image's own vLLM."""
    cc = (facts.get("gpu") or {}).get("compute_capability")
    image = (facts.get("site") or {}).get("image")
    if not isinstance(cc, (int, float)) or cc < 7.0 or not image or not (basis or "").startswith("image"):
        return {}
    row = deploy_tools.vendor_torch(image)
    if row is None:
        return {}
    return {"build": "image", "build_cuda": row["torch_cuda"], "build_arch": f"sm_{round(cc * 10)}",
            "build_torch": f"{row['torch']}+cu{row['torch_cuda'].replace('.', '')}", "build_image": image,
            "build_source": row["source"], "image_torch_ok": cc < 10.0 or _cuda(row["torch_cuda"]) >= TORCH_NEW}


def pypi_image_facts(facts: dict, table: dict, version: str | None, basis: str | None) -> dict[str, Any]:
    """A framework's image whose vLLM is PyPI's wheel of the release (engine/scan/image_tables.py
    pypi_wheel_release: Xinference's image pip-installs `vllm==0.8.5`): that wheel's kernels are the row's,
    and its compiled ops load only with the torch release it pins, so a torch before the first with a CUDA
    12.8 build (2.7.0) has no Blackwell kernels from any index. Which torch build the image holds beside a
    later pin is the maker's choice: not judged (no P1 on PyPI's default torch), nor the driver."""
    cc = (facts.get("gpu") or {}).get("compute_capability")
    site = facts.get("site") or {}
    v = try_parse(version) if version else None
    wheel = try_parse(image_tables.pypi_wheel_release(site.get("image") or site.get("release_image")) or "")
    # the release the image's tag gives (0.8.5.post1) is the one the site runs, read at its base (0.8.5)
    if basis != "image-other" or not isinstance(cc, (int, float)) or cc < 7.0 or v is None or not table \
            or _NOT_RELEASE.search(version or "") or wheel is None or wheel.release != v.release:
        return {}
    st = _state(table, v, float(cc), "wheel")
    if st is None:
        return {}
    kernels_ok, _, row = st
    torch_ok = cc < 10.0 or parse(row["torch"]) >= TORCH_FIRST_CU128
    out: dict[str, Any] = {"build": "PyPI wheel", "build_cuda": row["cuda"], "build_kernels_ok": kernels_ok and torch_ok,
                           "build_torch": f"{row['torch']}+cu{row['torch_cuda'].replace('.', '')}",
                           "build_arch": f"sm_{round(cc * 10)}"}
    if not (kernels_ok and torch_ok) and (pin := _fix(table, v, float(cc), "wheel", False)):
        out["build_pin"] = pin
    return out


def unknown_image_facts(facts: dict, basis: str | None) -> dict[str, Any]:
    """`build_image_unknown`: another maker's vLLM image whose release nothing tells (no tag, no pin, no
    row of vendor_images.yaml) on a Blackwell GPU. Its torch may be a build for a CUDA below 12.8, which
    has no sm_100/sm_120 code (the image of Hunyuan-A13B #8: "no kernel image is available"); whether it
    is, only the image knows, so this is a question to check, not a refusal."""
    cc = (facts.get("gpu") or {}).get("compute_capability")
    image = (facts.get("site") or {}).get("image")
    if basis != "image-other" or (facts.get("vllm") or {}).get("pinned") or not image \
            or not isinstance(cc, (int, float)) or cc < 10.0:
        return {}
    return {"build_image_unknown": image, "build_arch": f"sm_{round(cc * 10)}"}


def build_facts(facts: dict, table: dict, version: str | None, basis: str | None) -> dict[str, Any]:
    if vendor := vendor_torch_facts(facts, basis):
        return vendor
    if pypi := pypi_image_facts(facts, table, version, basis):
        return pypi
    cc = (facts.get("gpu") or {}).get("compute_capability")
    if unknown := unknown_image_facts(facts, basis):
        return unknown
    v = try_parse(version) if version else None
    if v is not None and _NOT_RELEASE.search(version or ""):
        return {}  # `0.9.2.dev300+g<sha>`, `0.9.0+cu128`: a source or variant build, not the release's wheel
    variant = _VARIANT.fullmatch(basis or "")
    if basis == UNTAGGED and not _every_image_stops(facts, table):
        return {}  # `:latest` may be any release's image: the driver is judged only where none starts
    kind = "wheel" if basis in WHEEL else "image" if basis in IMAGE or variant or basis == UNTAGGED else None
    if not isinstance(cc, (int, float)) or cc < 7.0 or v is None or kind is None or not table:
        return {}  # below 7.0 every build refuses (L6's first rule)
    # a unified-memory NVIDIA GPU is an Arm system's (DGX Spark, Jetson): not the x86_64 pipeline's build
    arm = bool((facts.get("gpu") or {}).get("unified_memory"))
    st = _state(table, v, float(cc), kind, arm)
    if st is None:
        return {}
    kernels_ok, torch_ok, row = st
    image_cuda = f"{variant.group(1)}.{variant.group(2)}" if variant else row.get("image_cuda") or row["cuda"]
    out: dict[str, Any] = {"build": kind, "build_cuda": image_cuda if kind == "image" else row["cuda"]}
    if not variant:  # a -cuNNN tag is another build: its kernels are not this row's
        out.update({"build_kernels_ok": kernels_ok, "build_torch_ok": torch_ok,
                    "build_torch": f"{row['torch']}+cu{row['torch_cuda'].replace('.', '')}",
                    "build_arch": f"sm_{round(cc * 10)}"})
        if not (kernels_ok and torch_ok):
            pin = _fix(table, v, float(cc), kind, False, arm)
            if pin:
                out["build_pin"] = pin
        # an Arm host's sdist build compiles NVFP4 for the archs its builder asks (TORCH_CUDA_ARCH_LIST, else the
        # GPU torch sees), through cuda_archs_loose_intersection: not the published wheel's targets, not judged
        if kernels_ok and torch_ok and not (arm and kind == "wheel" and v < FIRST_AARCH64_WHEEL):
            out.update(fp4_facts(facts, table, v, float(cc)))
    out.update(driver_facts(facts.get("gpu") or {}, table, v, out["build_cuda"], kind,
                            _compat(row, kind, facts.get("env") or {}, bool(variant))))
    if str((facts.get("env") or {}).get("NVIDIA_DISABLE_REQUIRE", "")).lower() in ("1", "true", "yes"):
        out.pop("image_refused", None)  # the container runtime skips the requirement check
    return out


# a checkpoint whose linear layers run vLLM's own NVFP4 kernels (W4A4: ModelOpt NVFP4, llm-compressor's
# NVFP4 scheme, both named "-NVFP4"); a weight-only NVFP4A16 checkpoint runs Marlin and needs none
_FP4_METHODS = frozenset({"nvfp4", "modelopt_fp4"})
_A16 = re.compile(r"(?i)fp4[-_]?a16")


def fp4_covers(targets: list[str], cc: float) -> bool:
    """Whether NVFP4 code built for these targets runs on the capability: an `a` target on that
    capability alone, an `f` target on its family from its minor on (nvcc's arch-specific and
    family-specific targets; neither is reached by PTX JIT)."""
    major, minor = int(cc), round(cc * 10) % 10
    for t in targets:
        base = float(t[:-1])
        if t.endswith("a") and round(base * 10) == round(cc * 10):
            return True
        if t.endswith("f") and int(base) == major and round(base * 10) % 10 <= minor:
            return True
    return False


def fp4_facts(facts: dict, table: dict, v: Version, cc: float) -> dict[str, Any]:
    """`build_fp4_ok`: whether the published build's NVFP4 kernels (knowledge/vllm/cuda_builds.yaml
    `fp4`) run on a GPU that has FP4 tensor cores (10.0 and up), for an NVFP4 W4A4 checkpoint; vLLM
    admits every capability from 10.0 to its CUTLASS FP4 path (cutlass_scaled_mm_supports_fp4) and
    quantizes activations with its own scaled_fp4_quant kernel, so a missing target stops the start."""
    model, engine = facts.get("model") or {}, facts.get("engine") or {}
    method = str(engine.get("quantization") or (model.get("quant_method") if model.get("quantized") else "") or "").lower()
    if cc < 10.0 or method not in _FP4_METHODS or _A16.search(str(model.get("name") or "")):
        return {}
    row = _row(table, v)
    if row is None or not row.get("fp4"):
        return {}
    ok = fp4_covers(row["fp4"], cc)
    out: dict[str, Any] = {"build_fp4_ok": ok, "build_fp4": ", ".join(f"sm_{t.replace('.', '')}" for t in row["fp4"]),
                           "build_fp4_family": int(cc),
                           # a sibling of the family has its code (12.0a, not 12.1): vLLM's family dispatch runs it
                           "build_fp4_sibling": any(int(float(t[:-1])) == int(cc) for t in row["fp4"])}
    if not ok and (first := _first_covering(table, v, cc, "fp4")):
        out["build_fp4_pin"] = f">={first}"
    elif model.get("moe") is True and row.get("fp4_moe") is not None and not _flashinfer_moe(facts, v):
        out.update(_fp4_moe(table, row, v, cc))
    return out


# VLLM_USE_FLASHINFER_MOE_FP4=1 hands the experts to FlashInfer's CUTLASS MoE where its device test
# passes: is_device_capability(100) up to 0.11.0 (never a 12.x GPU: the env changes nothing there),
# has_device_capability(100) from 0.11.1 (every Blackwell): whether FlashInfer's build runs on the
# GPU is then not the build table's (flashinfer_fp4_moe.is_flashinfer_fp4_cutlass_moe_available)
_FLASHINFER_ANY_BLACKWELL = parse("0.11.1")


def _flashinfer_moe(facts: dict, v: Version) -> bool:
    env = str((facts.get("env") or {}).get("VLLM_USE_FLASHINFER_MOE_FP4", "")).strip().lower()
    return env in ("1", "true") and v >= _FLASHINFER_ANY_BLACKWELL


def _fp4_moe(table: dict, row: dict, v: Version, cc: float) -> dict[str, Any]:
    """`build_fp4_moe_ok` for an NVFP4 mixture of experts whose dense FP4 kernels run: vLLM takes its
    CUTLASS FP4 MoE path wherever cutlass_scaled_mm_supports_fp4 admits the GPU (detect_nvfp4_moe_support
    falls back to Marlin only below 10.0), so experts without code for the GPU stop the start."""
    ok = fp4_covers(row["fp4_moe"], cc)
    out: dict[str, Any] = {"build_fp4_moe_ok": ok,
                           "build_fp4_moe": ", ".join(f"sm_{t.replace('.', '')}" for t in row["fp4_moe"]) or "none"}
    if not ok and (first := _first_covering(table, v, cc, "fp4_moe")):
        out["build_fp4_moe_pin"] = f">={first}"
    return out


def _first_covering(table: dict, v: Version, cc: float, key: str) -> Version | None:
    """The first release after `v` whose build's `key` targets (fp4, fp4_moe) run on the GPU."""
    later = sorted(parse(r["release"]) for r in table.get("rows") or []
                   if parse(r["release"]) > v and r.get(key) and fp4_covers(r[key], cc))
    return later[0] if later else None


_VARIANT = re.compile(r"image-cu(1\d)(\d)")
UNTAGGED = "image-untagged"  # the version basis of an image whose tag names no release (engine/check/site_release.py)


def _every_image_stops(facts: dict, table: dict) -> bool:
    """Whether the driver stops the vllm/vllm-openai image of every release the table knows (L29's
    refusals: the container runtime's requirement, a CUDA-major gap without cuda-compat, error 804 on a
    GeForce): then an untagged image fails whichever copy the host pulled."""
    gpu, env = facts.get("gpu") or {}, facts.get("env") or {}
    rows = table.get("rows") or []
    if not rows or not _driver_of(gpu, table)[0]:
        return False
    for row in rows:
        d = driver_facts(gpu, table, Version(row["release"]), row.get("image_cuda") or row["cuda"], "image",
                         _compat(row, "image", env, False))
        stops = d.get("image_refused") or (d.get("driver_major_short") and d.get("image_compat") is False) \
            or (d.get("driver_short") and d.get("geforce") and d.get("image_compat") is not False)
        if not stops:
            return False
    return True
_ON = ("1", "true")


def _compat(row: dict, kind: str, env: dict, variant: bool) -> bool | None:
    """Whether the image loads its CUDA's cuda-compat libraries (knowledge/vllm/cuda_builds.yaml
    image_compat, from its Dockerfile): by default up to 0.16.x; from 0.17.0 only with
    VLLM_ENABLE_CUDA_COMPATIBILITY=1 (vllm/env_override.py, before torch loads CUDA). None: not known."""
    if kind != "image" or "image_compat" not in row:
        return None
    if row["image_compat"]:
        return True
    return str(env.get("VLLM_ENABLE_CUDA_COMPATIBILITY", "0")).strip().lower() in _ON
_NOT_RELEASE = re.compile(r"dev|\+", re.I)
_CONSUMER = ("geforce", "titan")


def _driver_of(gpu: dict, table: dict) -> tuple[tuple[int, ...] | None, int | None]:
    """The driver's CUDA and branch: as given (NVML, or the spec's `cuda 12.1` / `driver 530.30`),
    each derived from the other through the CUDA every driver branch reports."""
    branches = {r["branch"]: r["cuda"] for r in table.get("driver_branches") or []}
    branch = gpu.get("driver_branch") if isinstance(gpu.get("driver_branch"), int) else None
    have = gpu.get("driver_cuda") or (branches.get(branch) if branch else None)
    try:
        drv = _cuda(str(have)) if have else None
    except ValueError:
        drv = None
    if drv and branch is None:
        by_cuda = [b for b, c in branches.items() if _cuda(c) == drv[:2]]
        branch = by_cuda[0] if len(by_cuda) == 1 else None
    return drv, branch


def image_starts(table: dict, cuda: str, drv: tuple[int, ...], branch: int | None, consumer: bool) -> bool | None:
    """Whether nvidia-container-cli lets an image of that CUDA start (NVIDIA_REQUIRE_CUDA: `cuda>=X.Y`,
    or a driver branch and brand it lists for forward compatibility); None when the image's list or
    the driver's branch is not known."""
    if drv >= _cuda(cuda):
        return True
    req = next((r for r in table.get("container_require") or [] if r["cuda"] == cuda), None)
    if req is None or branch is None:
        return None
    return branch in req["branches"] and (req["geforce"] or not consumer)


def driver_facts(gpu: dict, table: dict, v: Version, cuda: str, kind: str, compat: bool | None = None) -> dict[str, Any]:
    """The driver against the build: a CUDA 13 build needs a CUDA 13 driver (minor-version
    compatibility stays within a major); an image whose CUDA is newer than the driver is refused by
    the container runtime unless the driver's branch is one its base image lists, and then loads the
    cuda-compat libraries its Dockerfile registers (ldconfig …/compat), which only data-centre GPUs
    accept (CUDA error 804 on a GeForce)."""
    drv, branch = _driver_of(gpu, table)
    if not drv:
        return {}
    need = _cuda(cuda)
    consumer = any(w in str(gpu.get("name") or "").lower() for w in _CONSUMER)
    out: dict[str, Any] = {"driver_short": drv < need, "driver_major_short": drv[0] < need[0],
                           "geforce": consumer, "driver_cuda": ".".join(map(str, drv[:2]))}
    if branch is not None:
        out["driver_branch"] = branch
    if compat is not None:
        out["image_compat"] = compat
    if not out["driver_short"]:
        return out
    if kind == "image":
        starts = image_starts(table, cuda, drv, branch, consumer)
        if starts is not None:
            out["image_refused"] = not starts

    def runs(r: dict) -> bool:
        if kind == "wheel":
            return _cuda(r["cuda"])[0] <= drv[0]
        c = r.get("image_cuda") or r["cuda"]
        # on a GeForce a forward-compatible start still stops at error 804: the image's CUDA must fit
        return _cuda(c) <= drv or (not consumer and bool(image_starts(table, c, drv, branch, consumer)))
    earlier = [Version(r["release"]) for r in table.get("rows") or [] if Version(r["release"]) < v and runs(r)]
    if earlier:
        out["driver_pin"] = "<=" + str(earlier[-1])
    if kind == "image":
        row = _row(table, v) or {}
        fits = [c for c in row.get("image_variants") or [] if _cuda(c) <= drv]
        tags = ([f"v{v}-cu{fits[-1].replace('.', '')}"] if fits else []) + ([f"v{earlier[-1]}"] if earlier else [])
        if tags:
            out["image_tags"] = " / ".join(f"vllm/vllm-openai:{t}" for t in tags)
    return out
