"""The NVFP4 kernels of a release's published build, for tools/vllm_cuda_builds.py (`fp4` per row).

vLLM's FP4 kernels (nvfp4 quantization, the FP4 GEMM, the FP4 grouped MoE GEMM) are compiled only for
arch-specific targets: CMakeLists.txt intersects `FP4_ARCHS` (later FP4_SM100_ARCHS/FP4_SM120_ARCHS)
with the build's arch list through cuda_archs_loose_intersection (cmake/utils.cmake), which keeps an
`X.Ya` or `X.Yf` source only where X.Y itself is in the list. Below CUDA 13 the lists are `a` targets
(10.0a;10.1a;10.3a, 12.0a and from 0.19.0 12.0a;12.1a); from CUDA 13 the `f` family targets (10.0f;11.0f,
12.0f). The published builds' arch list (docker/Dockerfile `torch_cuda_arch_list`; the release
pipeline's CUDA_ARCH_X86/AARCH64 from 0.20.0, the same 10.x/12.x entries) names 10.0 and 12.0 only, so
an `a` build has FP4 code for sm_100 and sm_120 alone, an `f` build for each family (PTX JIT does not
reach `a`/`f` code). A GPU whose FP4 target is missing stops at the first FP4 kernel ("no kernel image
is available for execution on the device"): vLLM's cutlass_scaled_mm_supports_fp4 admits every
capability from 10.0 (csrc/quantization/fp4/nvfp4_scaled_mm_entry.cu), so it does not fall back.
"""
from __future__ import annotations

import re
from pathlib import Path

_INTERSECT = re.compile(r'cuda_archs_loose_intersection\(\s*FP4_\w*ARCHS\s+"([^"]+)"')
_GUARD = re.compile(r"^\s*if\s*\(\s*\$\{CMAKE_CUDA_COMPILER_VERSION\}\s+VERSION_GREATER_EQUAL\s+([\d.]+)\s*\)\s*$")
_ELSE = re.compile(r"^\s*else\s*\(\s*\)\s*$")
_ARCH_LIST = re.compile(r"^ARG torch_cuda_arch_list='([^']+)'")


def _vkey(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


def arch_list(root: Path) -> tuple[list[str], dict] | None:
    """The published build's arch list: the Dockerfile's default torch_cuda_arch_list (+PTX dropped)."""
    for rel in ("docker/Dockerfile", "Dockerfile"):
        f = root / rel
        if not f.is_file():
            continue
        for i, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            m = _ARCH_LIST.match(line)
            if m:
                return [a.replace("+PTX", "") for a in m.group(1).split()], {"file": rel, "line": i}
    return None


def _taken(lines: list[str], i: int, cuda: str) -> bool:
    """Whether an nvcc of `cuda` takes the intersection on line i: an `if(… VERSION_GREATER_EQUAL x)`
    / `else()` pair right above it decides."""
    prev = lines[i - 1] if i else ""
    g = _GUARD.match(prev)
    if g:
        return _vkey(cuda) >= _vkey(g.group(1))
    if _ELSE.match(prev):
        g = _GUARD.match(lines[i - 3]) if i >= 3 else None
        return not (g and _vkey(cuda) >= _vkey(g.group(1)))
    return True


def sources(root: Path, cuda: str) -> list[tuple[str, int]]:
    """Each FP4 intersection's source list that an nvcc of `cuda` takes, with its line."""
    lines = (root / "CMakeLists.txt").read_text(encoding="utf-8").splitlines()
    out = []
    for i, line in enumerate(lines):
        m = _INTERSECT.search(line)
        if m and _taken(lines, i, cuda):
            out.append((m.group(1), i + 1))
    return out


def fp4_targets(root: Path, cuda: str) -> tuple[list[str], list[dict]] | None:
    """The FP4 targets the published build compiles (`10.0a`, `12.0f`), with their sources; None
    where the release builds no FP4 kernels or its arch list is not known."""
    if _vkey(cuda) < (12, 8):
        return None  # the FP4 blocks need CUDA 12.8 (VERSION_GREATER_EQUAL 12.8 AND FP4_ARCHS)
    got = arch_list(root)
    srcs = sources(root, cuda) if got else []
    if not got or not srcs:
        return None
    archs, where = got
    targets: set[str] = set()
    for text, _ in srcs:
        for a in text.split(";"):
            base = re.sub(r"[af]$", "", a)
            if a != base and base in archs:
                targets.add(a)
    out = sorted(targets, key=lambda a: _vkey(re.sub(r"[af]$", "", a)))
    return out, [{"file": "CMakeLists.txt", "line": srcs[0][1]}, where]


# the FP4 MoE path's CUDA sources: the grouped FP4 GEMM (cutlass_fp4_group_mm), the experts' FP4
# activation quantization and the expert-offset kernels every CUTLASS MoE runs (get_cutlass_moe_mm_data)
MOE_SOURCES = ("nvfp4_blockwise_moe_kernel.cu", "nvfp4_experts_quant.cu", "moe_data.cu")
_ANY_INTERSECT = re.compile(r'cuda_archs_loose_intersection\(\s*(\w+)\s+"([^"]*)"')


def _blocks(root: Path, cuda: str) -> list[tuple[str, int, str]]:
    """Each intersection an nvcc of `cuda` takes, with its line and the text up to the next one."""
    lines = (root / "CMakeLists.txt").read_text(encoding="utf-8").splitlines()
    hits = []
    for i, line in enumerate(lines):
        m = _ANY_INTERSECT.search(line)
        if m and _taken(lines, i, cuda):
            hits.append((i, m.group(2)))
    out = []
    for k, (i, archs) in enumerate(hits):
        end = hits[k + 1][0] if k + 1 < len(hits) else len(lines)
        # a comment may name a source its block does not build ("moe_data.cu is used by …")
        body = [t for t in lines[i:end] if not t.lstrip().startswith("#")]
        out.append((archs, i + 1, "\n".join(body)))
    return out


def fp4_moe_targets(root: Path, cuda: str) -> tuple[list[str], list[dict]] | None:
    """The arch-specific targets the published build compiles every FP4 MoE source for (a target
    lacking one of them has no NVFP4 MoE path: "No compiled get_cutlass_moe_mm_data" or "no kernel
    image is available"), with the line of each source's block; None where the release builds no
    FP4 kernels or its arch list is not known."""
    if _vkey(cuda) < (12, 8):
        return None
    got = arch_list(root)
    if not got:
        return None
    archs, where = got
    per_source: list[set[str]] = []
    lines: list[dict] = []
    for src in MOE_SOURCES:
        targets: set[str] = set()
        for text, line, body in _blocks(root, cuda):
            if src not in body:
                continue
            lines.append({"file": "CMakeLists.txt", "line": line})
            for a in text.split(";"):
                base = re.sub(r"[af]$", "", a)
                if a != base and base in archs:
                    targets.add(a)
        per_source.append(targets)
    if not per_source[0]:
        return None
    common = set.intersection(*per_source)
    # the grouped GEMM has a 12.x code path only where it dispatches one (ENABLE_NVFP4_SM120, 0.12.0+);
    # before, a 12.x target (0.11.1) compiles the SM100 kernels under their guard and runs none of them
    kernel = next(iter(sorted(root.rglob(MOE_SOURCES[0]))), None)
    if kernel is None:
        return None
    if "ENABLE_NVFP4_SM120" not in kernel.read_text(encoding="utf-8"):
        common = {t for t in common if not t.startswith("12.")}
    seen: list[dict] = []
    for s in lines:
        if s not in seen:
            seen.append(s)
    return sorted(common, key=lambda a: _vkey(re.sub(r"[af]$", "", a))), [*seen, where]
