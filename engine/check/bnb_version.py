"""The bitsandbytes a BitsAndBytes launch runs with against the floor the pinned vLLM release checks.

vLLM does not require bitsandbytes; its BitsAndBytes config and loader compare the installed release with a
floor (0.42.0 in 0.5.0 … 0.46.1 from 0.9.2: knowledge/vllm/bnb_version.yaml, tools/vllm_bnb_version.py) and
raise "bitsandbytes version is wrong. Please install bitsandbytes>=X." while the model is built. What is
installed is the project's own pin, or, in an image that keeps a package vLLM does not pin, the image's
(knowledge/deploy/framework_images.yaml `packages:`: KServe's huggingfaceserver 0.16.0-0.20.0 keep
bitsandbytes 0.45.5 from their uv.lock, kserve/kserve#4875). Only a pin every allowed release of which is
below the floor, or an image release the table names, says so; the rule reads it only for a BitsAndBytes
launch (L20).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from vllm_kb.engine.check.transformers_fit import _allows_from
from vllm_kb.engine.kb import resources, yamlio
from vllm_kb.engine.kb.versions import InvalidSpecifier, SpecifierSet, in_spans, try_parse
from vllm_kb.engine.scan.image_tables import framework_image_package


@lru_cache(maxsize=1)
def _table() -> dict:
    return yamlio.load_cached(resources.read_text("knowledge", "vllm", "bnb_version.yaml")).data


def _floor(release: str) -> dict | None:
    base = release.split(".post")[0]
    return next((r for r in _table().get("floors") or [] if in_spans(release, r["vllm"]) or in_spans(base, r["vllm"])), None)


def bnb_version_fit(facts: dict, pin: Any, image: str | None) -> dict[str, Any]:
    """launch.bnb_below / bnb_by / bnb_min / bnb_min_at / bnb_fix (and bnb_image for an image's own
    package) where the bitsandbytes the site runs is older than its vLLM release's floor."""
    release = str((facts.get("vllm") or {}).get("version") or "")
    row = _floor(release) if release else None
    if row is None:
        return {}
    floor = str(row["min"])
    out: dict[str, Any] = {"bnb_min": floor, "bnb_min_at": f"{row['file']}:{row['line']} in {row['at']}", "bnb_fix": f">={floor}"}
    spec = getattr(pin, "spec", None) if pin is not None else None
    if spec and getattr(pin, "source", "") != "git":
        try:
            SpecifierSet(spec)
        except InvalidSpecifier:
            return {}
        if _allows_from(spec, floor, []):
            return {}
        return {**out, "bnb_below": spec, "bnb_by": f"{pin.text} ({pin.file}:{pin.line})"}
    if image and (got := framework_image_package(image, "bitsandbytes")):
        have, source = got
        ours, needed = try_parse(have), try_parse(floor)
        if ours is not None and needed is not None and ours < needed:
            return {**out, "bnb_below": have, "bnb_by": f"{image}: bitsandbytes {have} ({source})", "bnb_image": True}
    return {}
