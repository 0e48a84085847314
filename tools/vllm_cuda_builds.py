#!/usr/bin/env python3
"""Build knowledge/vllm/cuda_builds.yaml: per vLLM release, the GPU architectures its published
build (the PyPI wheel and the vllm/vllm-openai image, both compiled in the release pipeline's
docker/Dockerfile build stage) has kernels for, and the CUDA of the torch each one runs with.
Read from the unpacked releases:

* the CUDA the release is built with: MAIN_CUDA_VERSION (setup.py up to 0.10.x, then
  VLLM_MAIN_CUDA_VERSION in vllm/envs.py) — the wheel on PyPI and the image's CUDA_VERSION;
* the torch it pins (requirements-cuda.txt, later requirements/cuda.txt);
* CUDA_SUPPORTED_ARCHS of CMakeLists.txt, the branch that build's nvcc takes (the lists are
  guarded by `CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL x` from 0.9.0; before, one list
  whose 10.x/12.x entries a CUDA below 12.8 cannot compile).

The image: `image_cuda`, the default CUDA_VERSION of the release's Dockerfile (Dockerfile, from 0.8.3
docker/Dockerfile; read from the sdist tarballs, which ship it from 0.6.2 — before, EARLY_IMAGES with
its source), and `image_variants`, the `-cuNNN` tags its release scripts publish beside the default
(.buildkite/scripts/annotate-release.sh, later publish-release-images.sh). The nvidia/cuda base image
of each CUDA carries NVIDIA_REQUIRE_CUDA, which nvidia-container-cli checks before the container
starts: `cuda>=X.Y` or one of the driver branches it lists for forward compatibility (NVIDIA's
container-images Dockerfiles, `CONTAINER_REQUIRE`); `DRIVER_BRANCHES` is the CUDA each driver branch
reports (NVIDIA's CUDA toolkit release notes, table 3).

Two facts are not in the sources and are written here with their source: the CUDA of the torch
wheel PyPI serves for each pinned torch (the `nvidia-cuda-runtime-cu12` / `cuda-toolkit` pin in that
wheel's core metadata on pypi.org), and the release pipeline's own arch list leaving 12.0 out
until vLLM PR #19794 (first release 0.9.2). Which archs a CUDA can compile: sm_100/sm_120 from 12.8,
none below sm_75 from 13.0 (NVIDIA's CUDA 12.8 and 13.0 release notes).
Run: python tools/vllm_cuda_builds.py --source /work/sdists/src --tar /work/sdists/tar [--check]
"""
from __future__ import annotations

import argparse
import re
import sys
import tarfile
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vllm_architectures import write_or_check  # noqa: E402
from vllm_fp4_archs import fp4_moe_targets, fp4_targets  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "knowledge" / "vllm" / "cuda_builds.yaml"
VERSION_DIR = re.compile(r"\d+(\.\d+)+$")

# torch release → CUDA of its default (PyPI) Linux x86_64 wheel: Requires-Dist nvidia-cuda-runtime-cu12==…
# (cuda-toolkit==… from 2.11) in the wheel's core metadata. 2.2.1 and 2.7.0 publish no metadata file:
# 2.2.1 is the 12.1 line of 2.2.x/2.3.x, 2.7.0 the 12.6 line of 2.7.x (pytorch.org release notes).
TORCH_PYPI_CUDA = {"2.2.1": "12.1", "2.3.0": "12.1", "2.3.1": "12.1", "2.4.0": "12.1", "2.5.1": "12.4",
                   "2.6.0": "12.4", "2.7.0": "12.6", "2.7.1": "12.6", "2.8.0": "12.8", "2.9.0": "12.8",
                   "2.9.1": "12.8", "2.10.0": "12.8", "2.11.0": "13.0", "2.13.0": "13.0", "2.14.0": "13.0"}
TORCH_SOURCE = "https://pypi.org/simple/torch/ (core metadata of each torch-<v>-cp311-manylinux x86_64 wheel)"
# the release pipeline's torch_cuda_arch_list (docker/Dockerfile) left these out before the release
PIPELINE = [{"vllm": "<0.9.2", "without": [12.0],
             "source": "https://github.com/vllm-project/vllm/pull/19794 ([CI] Add SM120 to the Dockerfile, June 2025)"}]


# the image's CUDA where the sdist ships no Dockerfile (before 0.6.2): the Dockerfile at the release tag
EARLY_IMAGES = {
    "0.4.1": ("12.1", "https://github.com/vllm-project/vllm/blob/v0.4.1/Dockerfile (FROM nvidia/cuda:12.1.0-devel-ubuntu22.04)"),
    "0.4.2": ("12.1", "https://github.com/vllm-project/vllm/blob/v0.4.2/Dockerfile (FROM nvidia/cuda:12.1.0-devel-ubuntu22.04)"),
    # the v0.4.3 image is the first on CUDA 12.4: on a 535 driver (CUDA 12.2) v0.4.3 stops with error 804
    # where v0.4.2 starts (vllm#5283, two users), 0.4.3 and 0.5.0 fail on RTX 4090s (vllm#5510), and
    # vllm#5635 points at the v0.4.3 image's layers for its cuda>=12.4 requirement
    "0.4.3": ("12.4", "https://github.com/vllm-project/vllm/issues/5283 (v0.4.3 image: error 804 on driver 535 where v0.4.2 "
                      "starts); https://github.com/vllm-project/vllm/issues/5510; https://github.com/vllm-project/vllm/issues/5635"),
    **{v: ("12.4", "https://github.com/vllm-project/vllm/issues/5635 (the v0.5.0 image: unsatisfied condition: cuda>=12.4); "
                   "https://github.com/vllm-project/vllm/blob/01da4491562af4f9d62fa831aec6125089370942/Dockerfile "
                   "(ARG CUDA_VERSION=12.4.1, summer 2024)")
       for v in ("0.5.0", "0.5.1", "0.5.2", "0.5.3", "0.5.4", "0.5.5", "0.6.0", "0.6.1")},
}
# NVIDIA_REQUIRE_CUDA of the nvidia/cuda base image per CUDA: the driver branches whose forward
# compatibility the container runtime accepts below `cuda>=X.Y`, and whether GeForce/TITAN cards are
# among the brands those alternatives name (from 12.8 only data-centre, workstation and vGPU brands).
CONTAINER_REQUIRE = [
    {"cuda": "12.1", "branches": [470, 510, 515, 525], "geforce": True,
     "source": "https://gitlab.com/nvidia/container-images/cuda/-/blob/master/dist/12.1.1/ubuntu2204/base/Dockerfile "
               "(NVIDIA_REQUIRE_CUDA: cuda>=12.1 or the 470, 510, 515, 525 branches; 450 on Tesla only)"},
    {"cuda": "12.4", "branches": [470, 525, 535], "geforce": True,
     "source": "https://gitlab.com/nvidia/container-images/cuda/-/blob/master/dist/12.4.1/ubuntu2204/base/Dockerfile "
               "(NVIDIA_REQUIRE_CUDA: cuda>=12.4 or the 470, 525, 535 branches, every brand)"},
    {"cuda": "12.8", "branches": [470, 535, 550, 560, 565], "geforce": False,
     "source": "https://gitlab.com/nvidia/container-images/cuda/-/blob/master/dist/12.8.1/ubuntu2204/base/Dockerfile "
               "(NVIDIA_REQUIRE_CUDA: cuda>=12.8 or the 470, 535, 550, 560, 565 branches; no geforce brand)"},
    {"cuda": "12.9", "branches": [535, 550, 560, 565, 570], "geforce": False,
     "source": "https://gitlab.com/nvidia/container-images/cuda/-/blob/master/dist/12.9.1/ubuntu2204/base/Dockerfile "
               "(NVIDIA_REQUIRE_CUDA: cuda>=12.9 or the 535, 550, 560, 565, 570 branches; no geforce brand)"},
]
# the CUDA version each Linux driver branch reports (nvidia-smi's "CUDA Version")
DRIVER_BRANCHES = {450: "11.0", 460: "11.2", 465: "11.3", 470: "11.4", 495: "11.5", 510: "11.6", 515: "11.7",
                   520: "11.8", 525: "12.0", 530: "12.1", 535: "12.2", 545: "12.3", 550: "12.4", 555: "12.5",
                   560: "12.6", 565: "12.7", 570: "12.8", 575: "12.9", 580: "13.0"}
DRIVER_SOURCE = "https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/ (table 3: toolkit and minimum driver versions)"


def vkey(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


def _cuda(root: Path) -> tuple[str, dict] | None:
    for rel, pat in (("setup.py", r'^MAIN_CUDA_VERSION\s*=\s*"([\d.]+)"'),
                     ("vllm/envs.py", r'^\s+VLLM_MAIN_CUDA_VERSION:\s*str\s*=\s*"([\d.]+)"')):
        f = root / rel
        if not f.is_file():
            continue
        for i, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            m = re.match(pat, line)
            if m:
                return m.group(1), {"file": rel, "line": i}
    return None


def _torch(root: Path) -> tuple[str, dict] | None:
    for rel in ("requirements-cuda.txt", "requirements/cuda.txt"):
        f = root / rel
        if not f.is_file():
            continue
        for i, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            m = re.match(r"^torch\s*==\s*([\d.]+)", line)
            if m:
                return m.group(1), {"file": rel, "line": i}
    return None


def _archs(root: Path, cuda: str) -> tuple[list[float], dict] | None:
    """The CUDA_SUPPORTED_ARCHS branch an nvcc of `cuda` takes."""
    lines = (root / "CMakeLists.txt").read_text(encoding="utf-8").splitlines()
    need: str | None = None  # the guard of the branch being read
    for i, line in enumerate(lines, 1):
        g = re.search(r"CMAKE_CUDA_COMPILER_VERSION\s+VERSION_GREATER_EQUAL\s+([\d.]+)", line)
        if g and re.match(r"\s*(if|elseif)\s*\(", lines[i - 2] if not re.match(r"\s*(if|elseif)", line) else line):
            need = g.group(1)
        elif re.match(r"\s*else\s*\(\s*\)", line):
            need = None
        m = re.match(r'\s*set\(CUDA_SUPPORTED_ARCHS\s+"([\d.;]+)"\)', line)
        if m and (need is None or vkey(cuda) >= vkey(need)):
            return [float(a) for a in m.group(1).split(";")], {"file": "CMakeLists.txt", "line": i}
    return None


def compiles(cuda: str, arch: float) -> bool:
    """Whether nvcc of that CUDA builds code for the arch (12.8: sm_100/sm_120; 13.0 drops < sm_75)."""
    c = vkey(cuda)
    if arch >= 10.0 and c < (12, 8):
        return False
    if arch == 11.0 and c < (13, 0):
        return False
    return not (arch < 7.5 and c >= (13, 0))


# the image loads the cuda-compat libraries of its CUDA by default (`ldconfig /usr/local/cuda-X.Y/compat/`,
# later an /etc/ld.so.conf.d entry), or only when VLLM_ENABLE_CUDA_COMPATIBILITY=1 (ENV …=0 in the Dockerfile,
# read by vllm/env_override.py before torch loads CUDA: from 0.17.0)
_COMPAT_ON = re.compile(r"^RUN .*(?:ldconfig /usr/local/cuda-.*/compat/|/compat/\S*\s*>\s*/etc/ld\.so\.conf\.d/)")
_COMPAT_OPT_IN = re.compile(r"^ENV VLLM_ENABLE_CUDA_COMPATIBILITY=0\b")


def _files(tar: Path | None, root: Path, release: str, rels: tuple[str, ...]) -> dict[str, str]:
    """The named files of the release's sdist: from its tarball when there, else the unpacked tree (the same files)."""
    f = tar / f"vllm-{release}.tar.gz" if tar else None
    if f is not None and f.is_file():
        with tarfile.open(f) as t:
            names = {m.name.split("/", 1)[1]: m for m in t.getmembers() if "/" in m.name}
            return {r: t.extractfile(names[r]).read().decode("utf-8") for r in rels if r in names}
    return {r: (root / r).read_text(encoding="utf-8") for r in rels if (root / r).is_file()}


def _image(tar: Path | None, release: str, root: Path | None = None) -> dict:
    """The image's CUDA (the Dockerfile's default CUDA_VERSION), the `-cuNNN` tags published beside it
    and whether it loads the cuda-compat libraries by default (`image_compat`)."""
    if release in EARLY_IMAGES:
        cuda, url = EARLY_IMAGES[release]
        return {"image_cuda": cuda, "image_source": url}
    files = _files(tar, root or Path("/nonexistent"), release, ("docker/Dockerfile", "Dockerfile",
                   ".buildkite/scripts/annotate-release.sh", ".buildkite/scripts/publish-release-images.sh"))
    out: dict = {}
    for rel in ("docker/Dockerfile", "Dockerfile"):
        if rel in files:
            lines = files[rel].splitlines()
            for i, line in enumerate(lines, 1):
                m = re.match(r"^ARG CUDA_VERSION=(\d+\.\d+)", line)
                if m:
                    out = {"image_cuda": m.group(1), "image_source": f"{rel}:{i}"}
                    break
            compat = [(i, True) for i, line in enumerate(lines, 1) if _COMPAT_ON.match(line)] + \
                     [(i, False) for i, line in enumerate(lines, 1) if _COMPAT_OPT_IN.match(line)]
            if out and compat:
                line, on = min(compat)
                out.update({"image_compat": on, "image_compat_source": f"{rel}:{line}"})
            break
    variants: set[str] = set()
    for rel in (".buildkite/scripts/annotate-release.sh", ".buildkite/scripts/publish-release-images.sh"):
        for line in files.get(rel, "").splitlines():
            if line.lstrip().startswith("#"):
                continue
            if "vllm/vllm-openai:v${RELEASE_VERSION}" in line or re.search(r"publish_\w*family\s", line):
                variants.update(re.findall(r"-cu(1\d)(\d)\b", line))
    if variants and out:
        out["image_variants"] = [f"{a}.{b}" for a, b in sorted(variants)]
    return out


def row(root: Path, release: str, tar: Path | None = None) -> dict | None:
    cuda, torch = _cuda(root), _torch(root)
    if not cuda or not torch or not (root / "CMakeLists.txt").is_file():
        return None
    archs = _archs(root, cuda[0])
    if not archs:
        return None
    kernels = [a for a in archs[0] if compiles(cuda[0], a)]
    fp4 = fp4_targets(root, cuda[0])  # the NVFP4 kernels' arch-specific targets (tools/vllm_fp4_archs.py)
    moe = fp4_moe_targets(root, cuda[0]) if fp4 else None
    return {"release": release, "cuda": cuda[0], "torch": torch[0], "torch_cuda": TORCH_PYPI_CUDA.get(torch[0]),
            "kernels": kernels, **_image(tar, release, root),
            **({"fp4": fp4[0], "fp4_source": [{"release": release, **s} for s in fp4[1]]} if fp4 else {}),
            **({"fp4_moe": moe[0], "fp4_moe_source": [{"release": release, **s} for s in moe[1]]} if moe else {}),
            "source": [{"release": release, **cuda[1]}, {"release": release, **torch[1]}, {"release": release, **archs[1]}]}


HEADER = """\
# The GPU architectures each vLLM release's published build has kernels for (`kernels`: compute
# capabilities; a cubin for X.y also runs on X.z, z ≥ y), the CUDA it is built with (`cuda`: the PyPI
# wheel's, MAIN_CUDA_VERSION), the torch it pins and the CUDA of that torch's default PyPI wheel
# (`torch_cuda`: what `pip install vllm==X` brings), the vllm/vllm-openai:vX image's CUDA (`image_cuda`,
# its Dockerfile's CUDA_VERSION) and the `-cuNNN` tags published beside it (`image_variants`).
# `container_require`: the driver branches each nvidia/cuda base image accepts below its CUDA
# (NVIDIA_REQUIRE_CUDA, checked by nvidia-container-cli); `driver_branches`: the CUDA each driver
# branch reports. Read by engine/check/startup_build.py for L6 and L29.
# `pipeline`: archs the release pipeline's Dockerfile arch list left out. Read by
# engine/check/startup_build.py for L6. Sources: `source` per row, `torch_source`, `pipeline[].source`.
# `fp4`: the arch-specific targets (`10.0a` runs on 10.0 only, `12.0f` on every 12.x) the build's NVFP4
# kernels are compiled for (tools/vllm_fp4_archs.py; `fp4_source`). Read for L6's NVFP4 rule.
# `fp4_moe`: the targets every NVFP4 MoE kernel (grouped FP4 GEMM, experts' FP4 quant, moe_data) has
# code for (`fp4_moe_source`). Read for L6's NVFP4 MoE rule.
# GENERATED by tools/vllm_cuda_builds.py from the unpacked releases — do not edit by hand.
"""


def build(src: Path, tar: Path | None = None) -> dict:
    releases = sorted((p.name for p in src.iterdir() if VERSION_DIR.match(p.name)), key=vkey)
    rows = [r for r in (row(src / v, v, tar) for v in releases) if r]
    missing = sorted({r["torch"] for r in rows if r["torch_cuda"] is None})
    if missing:
        sys.exit(f"add the PyPI CUDA of torch {', '.join(missing)} to TORCH_PYPI_CUDA")
    return {"version": 1, "releases": [rows[0]["release"], rows[-1]["release"]], "torch_source": TORCH_SOURCE,
            "pipeline": PIPELINE, "container_require": CONTAINER_REQUIRE, "driver_branches": [{"branch": b, "cuda": c} for b, c in sorted(DRIVER_BRANCHES.items())],
            "driver_source": DRIVER_SOURCE, "rows": rows}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", default="/work/sdists/src", type=Path)
    ap.add_argument("--tar", default="/work/sdists/tar", type=Path, help="the sdist tarballs (the Dockerfile)")
    ap.add_argument("--check", action="store_true", help="exit 1 when the committed file differs")
    a = ap.parse_args()
    text = HEADER + yaml.safe_dump(build(a.source, a.tar), sort_keys=False, allow_unicode=True, width=120)
    return write_or_check(OUT, text, a.check)


if __name__ == "__main__":
    sys.exit(main())
