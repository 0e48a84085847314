"""The project's own torch pin against a Blackwell GPU (check L6): `torch==2.7.0+cu126` names a wheel built
for CUDA 12.6, whose arch list stops at sm_90 (pytorch's .ci/manywheel/build_cuda.sh: TORCH_CUDA_ARCH_LIST up
to 9.0 for its CUDA 12.4/12.6 wheels, 10.0 and 12.0 from 12.8), so on an sm_100/sm_120 card the first kernel
stops the start. Only a pin whose build is named is certain: its local label, or the one index pip reads it
from (`--index-url …/whl/cu126` in its requirements file, or on its own `pip install` line); a plain
`torch==2.7.0` may come from any index, an `--extra-index-url` too. Only a pin of the torch release the site's
vLLM wheel runs with counts (another release is not what pip installs beside it)."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.check.dependency_pins import _applies, _on_linux
from vllm_kb.engine.check.startup_build import TORCH_NEW

_LABEL = re.compile(r"==\s*(\d+\.\d+\.\d+)\+cu(1\d)(\d)\b")
_RELEASE = re.compile(r"==\s*(\d+\.\d+\.\d+)(?![\w.+])")
_INDEX = re.compile(r"(?:^|\s)(?:-i|--index-url)(?:\s+|=)\S*/whl/(?:nightly/|test/)?cu(1\d)(\d)\b")


def _index_cuda(p, read) -> tuple[int, int] | None:
    """The CUDA of the one PyTorch index a pin is installed from: a requirements file's `--index-url` line
    (pip applies it to the whole file), or the pin's own install command (its line and the lines it
    continues onto)."""
    text = read(p.file) if read is not None else None
    if not text:
        return None
    lines = text.splitlines()
    if p.kind == "requirements":
        scope = lines
    else:
        scope, i = [], p.line - 1
        while 0 <= i < len(lines):
            scope.append(lines[i])
            if not lines[i].rstrip().endswith("\\"):
                break
            i += 1
    got = {(int(m.group(1)), int(m.group(2))) for line in scope for m in _INDEX.finditer(line.split(" #", 1)[0])}
    return got.pop() if len(got) == 1 else None


def _build(p, read) -> tuple[str, tuple[int, int]] | None:
    """(torch release, CUDA of its build) where the pin names both; None where the build is not named."""
    if m := _LABEL.search(p.text or ""):
        return m.group(1), (int(m.group(2)), int(m.group(3)))
    if (m := _RELEASE.search(p.text or "")) and (cuda := _index_cuda(p, read)):
        return m.group(1), cuda
    return None


def torch_pin_facts(site, choice, pins: list, facts: dict, read=None) -> dict[str, Any]:
    """startup.torch_pin_short (with torch_pin, torch_pin_at, torch_pin_cuda) for a site whose vLLM runs as
    the PyPI wheel on a GPU of compute capability 10.0 or more, where the project pins the wheel's torch
    release with a CUDA label below 12.8; startup.torch_pin_ok where the label is 12.8 or above (the torch
    that runs is then not the one PyPI serves for the release)."""
    st, cc = facts.get("startup") or {}, (facts.get("gpu") or {}).get("compute_capability")
    vpin = choice.pin
    if st.get("build") != "wheel" or not isinstance(cc, (int, float)) or cc < 10.0 or vpin is None:
        return {}
    want = str(st.get("build_torch") or "").split("+", 1)[0]
    folder = site.file.rpartition("/")[0]
    for p in pins:
        if p.package != "torch" or p.kind == "lock" or not _on_linux(p.text) or not _applies(p, folder, site, vpin):
            continue
        got = _build(p, read)
        if got is None or got[0] != want:
            continue
        if got[1] >= TORCH_NEW:
            return {"torch_pin_ok": True}  # the CUDA 12.8+ build of that torch: not the PyPI default's
        return {"torch_pin_short": True, "torch_pin": (p.text or "").split(";", 1)[0].split(" #", 1)[0].strip(),
                "torch_pin_at": f"{p.file}:{p.line}", "torch_pin_cuda": f"{got[1][0]}.{got[1][1]}",
                "build_arch": f"sm_{round(cc * 10)}"}
    return {}
