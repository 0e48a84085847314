"""Whether the site's vLLM installation holds the flashinfer package: `launch.flashinfer_missing`
where the project installs vLLM from PyPI at an exact release whose requirements do not bring it
(up to 0.11.0 it is not a dependency; 0.10.2-0.11.0 name it only as the `vllm[flashinfer]` extra,
knowledge/vllm/dependency_pins.yaml from 0.11.1) and nothing in the project installs it. An image,
a range, a source build or any mention of a flashinfer package in an install says nothing."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.kb import dependency_pins

# a flashinfer package (flashinfer, flashinfer-python, a flashinfer.ai wheel URL) in an install line
# or a requirements entry of the project
_NAMED = re.compile(r"(?i)flashinfer(?:[-_]python)?(?:[=<>~!\[ @]|\.ai|$)")
_INSTALL = re.compile(r"(?i)\b(pip3?|uv|conda|mamba|poetry|pdm)\b[^\n]*\binstall\b|\badd\b")


def flashinfer_missing(site: Any, choice: Any, pins: list, files: list[str], read) -> dict[str, Any]:
    vpin = choice.pin
    if site.image or vpin is None or choice.basis != "pin" or vpin.source or "flashinfer" in (vpin.text or "").lower():
        return {}
    req = dependency_pins.requires(choice.version)
    if not req or "flashinfer-python" in req:  # a release the table did not read says nothing
        return {}
    if any(p.package.startswith("flashinfer") for p in pins):
        return {}
    for rel in files:
        text = read(rel) or ""
        if "flashinfer" not in text.lower():
            continue
        for line in text.splitlines():
            if "flashinfer" not in line.lower():
                continue
            requirement = rel.rsplit("/", 1)[-1].lower().endswith((".txt", ".in", ".toml", ".cfg", ".yml", ".yaml", ".lock"))
            if _INSTALL.search(line) or (requirement and _NAMED.search(line.strip())):
                return {}
    return {"flashinfer_missing": True, "flashinfer_pin_at": choice.where}
