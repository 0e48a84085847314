"""NVIDIA Dynamo's vLLM worker (`python -m dynamo.vllm`, knowledge/deploy/llm_wrappers.yaml): which
Dynamo release runs it and what its own options say, for the checks of the worker's own start-up
refusals (knowledge/checks/L.yaml L143). The release is the vllm-runtime image's tag
(knowledge/deploy/framework_images.yaml), else the project's `ai-dynamo` pin; unknown otherwise."""
from __future__ import annotations

from typing import Any, Callable

from vllm_kb.engine.scan.images import framework_image

ENTRY = "dynamo.vllm (package)"


def dynamo_facts(site, pin_of: Callable[[str], Any]) -> dict[str, Any]:
    launch = site.launch or {}
    if launch.get("entry_point") != ENTRY:
        return {}
    out: dict[str, Any] = {}
    release = framework_image(site.image).get("ai-dynamo") if site.image else None
    if release is None and not site.image:  # an image of its own decides what runs, not the project's pin
        pin = pin_of("ai-dynamo")
        release = getattr(pin, "exact", None)
    if release:
        out["dynamo_release"] = str(release)
    connector = (launch.get("script_values") or {}).get("--connector")
    if connector:
        out["dynamo_connector"] = str(connector)
    return out
