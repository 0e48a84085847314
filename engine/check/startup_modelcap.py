"""Whether the release has a kernel for the model's own attention on the GPU: a family whose layer
names its CUDA backends itself (DeepSeek V4 and V4.1 hold a sparse-MLA `backend_cls` and never ask
the selector) runs only on the compute capabilities those backends take —
knowledge/vllm/model_kernels.yaml (tools/vllm_model_kernels.py). Off them no selector prints "No
valid attention backend found"; the kernels (FlashMLA sparse, DeepGEMM's HyperConnection) stop
the start with "Unsupported architecture" while the model is built or profiled.

A family row whose rule could not be read, a GPU whose capability the tool did not evaluate, an
architecture that is not known, or a release outside the table say nothing. A build whose local
version label is not one of vLLM's own variants (`+sm89`, the community builds that add Ada and
Ampere kernels for DeepSeek V4) is named in `model_kernels_local`: its kernels are not the
release's, so the check says P1."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.kb.versions import Version, try_parse

# the local labels of vLLM's own wheels and images (CUDA / CPU / ROCm variants, the nightly's commit
# and date): the release's kernels
_OWN_LABEL = re.compile(r"^(cu\d+|cpu|rocm[\d.]*|precompiled|empty|g[0-9a-f]{6,40}|d\d{8})$", re.I)
_PIN_LABEL = re.compile(r"==\s*[\w.]+\+([\w.]+)")
# the capabilities tools/vllm_model_kernels.py evaluates (tools/vllm_attn_selector.py CCS)
_EVALUATED = frozenset({7.0, 7.5, 8.0, 8.6, 8.7, 8.9, 9.0, 10.0, 10.3, 11.0, 12.0, 12.1})


def _family(span: dict, arch: str) -> tuple[str, dict] | None:
    for fid, fam in (span.get("families") or {}).items():
        if arch in (fam.get("architectures") or ()):
            return fid, fam
    return None


def _runs(span: dict, arch: str, cc: float) -> bool | None:
    """True/False: the span's family takes the GPU or not; None: not known there."""
    hit = _family(span, arch)
    if hit is None or hit[1].get("cc") is None:
        return None
    return cc in hit[1]["cc"]


def local_label(text: str) -> str | None:
    """The local version label of a vLLM version or pin (`0.28.0+sm89`, `vllm==0.23.1rc1.dev904+sm89.cu132`)
    when it is not one of vLLM's own builds."""
    m = _PIN_LABEL.search(text)
    label = m.group(1) if m else text.partition("+")[2]
    parts = [p for p in label.split(".") if p]
    return label if parts and not all(_OWN_LABEL.match(p) for p in parts) else None


def model_kernel_facts(arch: Any, gpu: dict, table: dict, version: str | None) -> dict[str, Any]:
    """startup.model_kernels_missing with the family, the capabilities it runs on, its backends and,
    where a later release takes the GPU, model_kernels_release / model_kernels_pin; model_kernels_local
    for a build of another origin."""
    v = try_parse(version.partition("+")[0]) if version else None
    cc = gpu.get("compute_capability")
    if v is None or not isinstance(arch, str) or not isinstance(cc, (int, float)) or isinstance(cc, bool):
        return {}
    cc = round(float(cc), 1)
    if cc not in _EVALUATED:
        return {}
    span = next((s for s in table.get("spans") or () if Version(s["first"]) <= v <= Version(s["last"])), None)
    if span is None or _runs(span, arch, cc) is not False:
        return {}
    fid, fam = _family(span, arch) or ("", {})
    out: dict[str, Any] = {"model_kernels_missing": True, "model_kernels_family": fid,
                           "model_kernels_cc": ", ".join(f"{c:.1f}" for c in fam["cc"]),
                           "model_kernels_backends": ", ".join(fam.get("backends") or ())}
    later = next((s["first"] for s in table.get("spans") or () if Version(s["first"]) > v and _runs(s, arch, cc)), None)
    if later:
        out.update({"model_kernels_release": later, "model_kernels_pin": ">=" + later})
    if label := local_label(version or ""):
        out["model_kernels_local"] = label
    return out


def mark_local(facts: dict, pin_text: str | None) -> None:
    """A development build is judged as a release, so its pin's local label (`+sm89`) is added here
    from the pin itself (engine/audit.py)."""
    startup = facts.get("startup") or {}
    if startup.get("model_kernels_missing") and "model_kernels_local" not in startup and pin_text:
        if label := local_label(pin_text):
            startup["model_kernels_local"] = label
