"""Xinference custom models: a registration file in the project (the JSON `xinference register
--model-type LLM --file spec.json` reads: `model_name`, `model_family`, `model_specs[]` with
`model_format`, `model_size_in_billions`, `quantizations`, and `model_id` on a hub or `model_uri`
on disk) resolves a launch of that name to its weights, so the model checks run. Source:
xinference/model/llm/llm_family.py `CustomLLMFamilyV1` / `LLMSpecV1` (1.x), the same fields in 0.x."""
from __future__ import annotations

import json
from typing import Any

_MAX = 256 * 1024  # a registration file is a few kB; larger JSON files are data, not read


def _specs(ctx) -> list[tuple[str, dict]]:
    """(file, registration) of every Xinference registration file in the project, read once."""
    got = getattr(ctx, "_xinference_custom", None)
    if got is not None:
        return got
    got = []
    for rel in ctx.files:
        if not rel.endswith(".json"):
            continue
        text = ctx.read(rel)
        if not text or len(text) > _MAX or '"model_name"' not in text or not any(k in text for k in ('"model_specs"', '"model_uri"', '"model_id"')):
            continue
        try:
            data = json.loads(text)
        except ValueError:
            continue
        if isinstance(data, dict) and isinstance(data.get("model_name"), str) and isinstance(data.get("model_specs"), list):
            got.append((rel, data))
        elif isinstance(data, dict) and isinstance(data.get("model_name"), str) and _weights(data):
            # an embedding or rerank registration: one spec, written at the top level
            got.append((rel, {**data, "model_specs": [data]}))
    ctx._xinference_custom = got
    return got


def _size(v: Any) -> str:
    text = str(v).strip().replace("_", ".")
    return text[:-2] if text.endswith(".0") else text


def _weights(spec: dict) -> str | None:
    """The hub id the spec names (its facts are the model's; a `model_uri` beside it is the local
    copy Xinference loads), else the local folder."""
    mid = spec.get("model_id")
    if isinstance(mid, str) and mid.strip():
        return mid.strip()
    uri = spec.get("model_uri")
    if isinstance(uri, str) and uri.strip():
        return uri.strip()[len("file://"):] if uri.strip().startswith("file://") else uri.strip()
    return None


def custom_model(ctx, name: object, size: object, fmt: object, quantization: object) -> tuple[str, str, str | None] | None:
    """(weights, registration file, model_family) of the project's registration of `name` whose
    spec fits the launch's size, format and quantization; None where no file registers the name
    or more than one spec fits (Xinference would ask for the one meant)."""
    if not isinstance(name, str) or ctx is None:
        return None
    form = str(fmt or "pytorch").lower()
    for rel, data in _specs(ctx):
        if data["model_name"].lower() != name.lower():
            continue
        fits = []
        for spec in data["model_specs"]:
            if not isinstance(spec, dict) or str(spec.get("model_format") or "pytorch").lower() != form:
                continue
            if size is not None and str(size).strip() and _size(spec.get("model_size_in_billions", "")) != _size(size):
                continue
            quants = [str(q).lower() for q in spec.get("quantizations") or []]
            if quantization is not None and str(quantization).strip() and quants and str(quantization).strip().lower() not in quants:
                continue
            if _weights(spec):
                fits.append(spec)
        if len(fits) == 1:
            family = data.get("model_family")
            return _weights(fits[0]) or "", rel, family if isinstance(family, str) else None
    return None
