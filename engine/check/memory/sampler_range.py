"""The lighter dummy sampler a project's vLLM range may run when the audit assumes its newest release.

vLLM 0.8.0-0.11.0 warm the sampler up with FlashInfer's kernels whenever FlashInfer is importable
(vllm/v1/sample/ops/topk_topp_sampler.py TopKTopPSampler.__init__; vLLM's Docker images and most RL
images ship it), from 0.11.1 only with VLLM_USE_FLASHINFER_SAMPLER=1. When the release is read from a
range (`vllm>=0.8.5,<=0.12.0`) and the newest release in it sorts the logits instead, the launch the
authors ran may well have been one of the earlier releases: a KV shortfall that only PyTorch's sampler
makes is then not certain (L16 P1, not P0)."""
from __future__ import annotations

import re

from vllm_kb.engine.kb.versions import InvalidSpecifier, SpecifierSet, parse, try_parse

FLASHINFER_SAMPLER_FROM = "0.8.0"
FLASHINFER_SAMPLER_UNTIL = "0.11.0"  # the last release that takes it whenever it is importable
# the package name and extras before a requirement's specifier: "vllm[audio]>=0.8.5" -> ">=0.8.5"
_NAME = re.compile(r"^\s*[A-Za-z0-9_.\-]+\s*(\[[^\]]*\])?\s*")


def range_sampler(pin_text: str | None, pinned: bool, basis: str | None, releases: list[str]) -> str | None:
    """"flashinfer" when the release is assumed from a range that admits a release (of `releases`)
    which takes FlashInfer's sampler where it is installed; None otherwise."""
    if pinned or basis != "range" or not pin_text:
        return None
    low, high = parse(FLASHINFER_SAMPLER_FROM), parse(FLASHINFER_SAMPLER_UNTIL)
    window = [t for t in releases if (v := try_parse(t)) is not None and low <= v <= high]
    # the project's requirements may name vLLM more than once ("vllm>=0.8.5,<=0.12.0 | vllm==0.8.2"
    # when setup.py and a requirements file differ): any of them may be what the authors ran
    for part in pin_text.split("|"):
        spec = _NAME.sub("", part.split(";")[0], count=1).strip()
        try:
            wanted = SpecifierSet(spec, pip=True)
        except InvalidSpecifier:
            continue
        if any(wanted.contains(t) for t in window):
            return "flashinfer"
    return None
