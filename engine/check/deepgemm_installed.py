"""Whether the site's vLLM installation holds DeepGEMM, where the model cannot run without it:
`launch.deepgemm_missing` for a checkpoint with DeepSeek's sparse-attention indexer (`index_topk` in
config.json: DeepSeek-V3.2, GLM-5) served by a release that builds the indexer on DeepGEMM's
fp8_mqa_logits / fp8_paged_mqa_logits with no other CUDA kernel (0.11.0-0.19.x), installed from
PyPI at an exact release (the wheel does not ship DeepGEMM before 0.20.0, whose wheel vendors it as
vllm.third_party.deep_gemm; no requirements file of those releases names it), where nothing in the
project installs it. vLLM's own image builds it in (docker/Dockerfile runs tools/install_deepgemm.sh
from 0.11.0), and an image, a range, a source build or any mention of DeepGEMM in an install or a
requirements file says nothing (check L160)."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.kb.versions import Version, try_parse

# the releases whose indexer needs the deep_gemm package and whose wheel lacks it
FIRST, VENDORED = Version("0.11.0"), Version("0.20.0")
# a DeepGEMM package or build in a line: deep_gemm, deep-gemm, DeepGEMM (its git URL), vLLM's install script
_NAMED = re.compile(r"(?i)deep[-_]?gemm")
_INSTALL = re.compile(r"(?i)\b(pip3?|uv|conda|mamba|poetry|pdm)\b[^\n]*\binstall\b|\badd\b|install_deepgemm|setup\.py|\bgit\s+clone\b")
_REQUIREMENT_FILES = (".txt", ".in", ".toml", ".cfg", ".yml", ".yaml", ".lock")


def needs_deepgemm(model: dict, version: str | None) -> bool:
    v = try_parse(str(version or "").partition("+")[0])
    topk = model.get("index_topk")
    return v is not None and FIRST <= v < VENDORED and isinstance(topk, int) and not isinstance(topk, bool) and topk > 0


def deepgemm_missing(site: Any, choice: Any, pins: list, files: list[str], read) -> dict[str, Any]:
    vpin = choice.pin
    if site.image or vpin is None or choice.basis != "pin" or vpin.source or _NAMED.search(vpin.text or ""):
        return {}
    if any(_NAMED.search(str(getattr(p, "package", "") or "")) for p in pins):
        return {}
    for rel in files:
        text = read(rel) or ""
        if not _NAMED.search(text):
            continue
        requirement = rel.rsplit("/", 1)[-1].lower().endswith(_REQUIREMENT_FILES)
        for line in text.splitlines():
            if _NAMED.search(line) and (requirement or _INSTALL.search(line)):
                return {}
    return {"deepgemm_missing": True, "deepgemm_pin_at": choice.where}
