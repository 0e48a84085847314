"""The project's own torch pin against a Blackwell GPU (check L6): `torch==2.7.0+cu126` names a wheel built
for CUDA 12.6, whose arch list stops at sm_90 (pytorch's .ci/manywheel/build_cuda.sh: TORCH_CUDA_ARCH_LIST up
to 9.0 for its CUDA 12.4/12.6 wheels, 10.0 and 12.0 from 12.8), so on an sm_100/sm_120 card the first kernel
stops the start. Only a pin whose local label names the CUDA is certain (a plain `torch==2.7.0` may come from
any index), and only of the torch release the site's vLLM wheel runs with (another release is not what pip
installs beside it)."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.check.dependency_pins import _applies, _on_linux

_LABEL = re.compile(r"==\s*(\d+\.\d+\.\d+)\+cu(1\d)(\d)\b")
_TORCH_NEW = (12, 8)


def torch_pin_facts(site, choice, pins: list, facts: dict) -> dict[str, Any]:
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
        m = _LABEL.search(p.text or "")
        if m and m.group(1) == want and (int(m.group(2)), int(m.group(3))) >= _TORCH_NEW:
            return {"torch_pin_ok": True}  # the CUDA 12.8+ build of that torch: not the PyPI default's
        if m and m.group(1) == want:
            return {"torch_pin_short": True, "torch_pin": (p.text or "").split(";", 1)[0].split(" #", 1)[0].strip(),
                    "torch_pin_at": f"{p.file}:{p.line}", "torch_pin_cuda": f"{m.group(2)}.{m.group(3)}",
                    "build_arch": f"sm_{round(cc * 10)}"}
    return {}
