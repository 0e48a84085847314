"""The releases whose DeepGEMM cannot serve the GPUs vLLM hands it, for L160 (knowledge/checks/L.yaml).

vLLM builds DeepGEMM into its wheel and image (vllm/third_party/deep_gemm) at the revision
cmake/external_projects/deepgemm.cmake pins, and sends block-FP8 linear layers to it on the GPUs
CudaPlatform.support_deep_gemm() admits (vllm/platforms/cuda.py). From 0.24.0 that includes the 12.x
family (RTX 50, RTX PRO Blackwell, GB10); a pinned revision without a 12.x case in its scale-factor
layout code (csrc/apis/layout.hpp) then stops every such launch while the weights load. Whether a
revision has that case is DeepGEMM's, not vLLM's, so SM12X below records it per revision with the
report that shows it; the rest is read from each release's sdist.

    python tools/vllm_deepgemm_pins.py --tar /work/scratch/sdists/dl            # the table
    python tools/vllm_deepgemm_pins.py --tar /work/scratch/sdists/dl --check    # L160 agrees
"""
from __future__ import annotations

import re
import sys
import tarfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from knowledge_rule import arguments, contains, rule  # noqa: E402
_CMAKE = "cmake/external_projects/deepgemm.cmake"
_CUDA = "vllm/platforms/cuda.py"
_TAG = re.compile(r'^\s*(?:set\(_DEEPGEMM_UPSTREAM_TAG\s+"?|GIT_TAG\s+)([0-9a-f]{40})')
_REPO = re.compile(r'(?:set\(_DEEPGEMM_UPSTREAM_REPO\s+"?|GIT_REPOSITORY\s+)(https://github\.com/[\w.-]+/DeepGEMM)')
_CAP = re.compile(r"is_device_capability(_family)?\((\d+)\)")

# the revisions without a 12.x case in their scale-factor layout (csrc/apis/layout.hpp), as the reports
# tracing the failures to the pin show; a revision the release's own cmake comment pins for its SM120
# support ("nv-dev branch due to sm120 support", "the SM120 port") has it
SM12X = {
    "891d57b4db1071624b5c8fa0d1e51cb317fa709f": (False, "https://github.com/vllm-project/vllm/issues/47436"),
    "e21c821f39a2056d68067a466c64ddc942200106": (False, "https://github.com/vllm-project/vllm/issues/51884"),
}
_SAYS_SM120 = re.compile(r"(?i)\bsm_?120\b")


def pin(cmake: str) -> tuple[str | None, str | None, bool]:
    """The DeepGEMM repository and revision a deepgemm.cmake fetches (its upstream default), and
    whether the comment above the revision says it is pinned for SM120."""
    lines = cmake.splitlines()
    at = next((i for i, line in enumerate(lines) if _TAG.match(line)), None)
    tag = _TAG.match(lines[at]).group(1) if at is not None else None
    comment = []
    for line in reversed(lines[:at] if at is not None else []):
        if not line.strip().startswith("#"):
            break
        comment.append(line)
    repo = next((m.group(1) for m in _REPO.finditer(cmake)), None)
    return repo, tag, any(_SAYS_SM120.search(c) for c in comment)


def families(cuda_py: str) -> list[int] | None:
    """The capabilities support_deep_gemm() admits, as 90/100/120 (a family covers its minors)."""
    m = re.search(r"def support_deep_gemm\(cls\)[^:]*:\n((?:\s{8}.*\n|\s*\n)+)", cuda_py)
    if not m:
        return None
    return sorted({int(c) for _, c in _CAP.findall(m.group(1))})


def rows(tar_dir: Path) -> list[dict]:
    out = []
    for f in sorted(tar_dir.glob("vllm-*.tar.gz"), key=lambda p: _vkey(p.name[5:-7])):
        release = f.name[5:-7]
        if not re.fullmatch(r"\d+\.\d+\.\d+", release):
            continue
        with tarfile.open(f) as t:
            names = {m.name.split("/", 1)[1]: m for m in t.getmembers() if "/" in m.name}
            if _CMAKE not in names or _CUDA not in names:
                continue
            cmake = t.extractfile(names[_CMAKE]).read().decode("utf-8")
            cuda = t.extractfile(names[_CUDA]).read().decode("utf-8")
        repo, tag, says = pin(cmake)
        fam = families(cuda) or []
        known = SM12X.get(tag or "") or ((True, f"{_CMAKE} of {release}") if says else None)
        out.append({"release": release, "families": fam, "repo": repo, "pin": tag,
                    "pin_sm12x": known[0] if known else None,
                    "breaks_sm12x": (120 in fam and known is not None and not known[0]) or None})
    return out


def _vkey(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", v))


def l160_spec() -> str:
    """The `vllm:` range of L160's rule for every block-FP8 model (the one that reads the pin)."""
    return rule("L160", "quant_block[0]")["vllm"]


def main() -> int:
    a = arguments("--tar", "/work/scratch/sdists/dl", "the sdist tarballs", "L160's rule")
    table = rows(a.tar)
    for r in table:
        print(f"{r['release']:>8}  families={r['families']}  pin={(r['pin'] or '?')[:8]}  sm12x={r['pin_sm12x']}")
    if not a.check:
        return 0
    spec = l160_spec()
    unknown = [r["release"] for r in table if 120 in r["families"] and r["pin_sm12x"] is None]
    wrong = [r["release"] for r in table if bool(r["breaks_sm12x"]) != contains(spec, r["release"])]
    for what, releases in (("pin not in SM12X", unknown), ("L160 disagrees", wrong)):
        if releases:
            print(f"{what}: {', '.join(releases)}", file=sys.stderr)
    return 1 if unknown or wrong else 0


if __name__ == "__main__":
    sys.exit(main())
