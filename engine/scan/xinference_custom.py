"""An Xinference custom model the project registers itself (`xinference register --file F.json`,
or `register_model(…)` with such a JSON): the launch names it by `--model-name`, and the JSON's
`model_specs` say which weights it is — `model_id` (a Hub id) or `model_uri` (a local folder,
`file://` or a plain path). Without this, a registered name is not in Xinference's own registry
and the model stays unknown, so no check that needs the checkpoint runs.

The spec is the one that matches the launch's format, size and quantization where it says them
(Xinference picks it the same way); several candidates with different weights say nothing."""
from __future__ import annotations

import json
from typing import Any

from vllm_kb.engine.scan.context import texts_with


def _specs(ctx) -> dict[str, list[tuple[str, dict]]]:
    """model_name (lower case) → (file, spec) of every registration JSON in the project."""
    got = ctx.__dict__.get("_xinference_custom")
    if got is None:
        got = {}
        for rel, text in texts_with(ctx, ctx.files, ".json", "model_specs", "model_name"):
            try:
                data = json.loads(text)
            except ValueError:
                continue
            if not isinstance(data, dict) or not isinstance(data.get("model_name"), str):
                continue
            for spec in data.get("model_specs") or []:
                if isinstance(spec, dict):
                    got.setdefault(data["model_name"].lower(), []).append((rel, spec))
        ctx.__dict__["_xinference_custom"] = got
    return got


def _same(said: object, listed: Any, size: bool = False) -> bool:
    """Whether the launch's value (absent: any) is the spec's; a size may be written 1_5 or 7.0."""
    if said is None or str(said).strip() == "" or listed is None:
        return True

    def norm(v: object) -> str:
        t = str(v).strip().lower()
        return t.replace("_", ".").removesuffix(".0") if size else t
    if isinstance(listed, list):
        return norm(said) in {norm(x) for x in listed}
    return norm(said) == norm(listed)


def _weights(spec: dict) -> str | None:
    uri = spec.get("model_uri")
    if isinstance(uri, str) and uri.strip():
        uri = uri.strip()
        return uri[len("file://"):] if uri.startswith("file://") else uri
    mid = spec.get("model_id")
    return mid.strip() if isinstance(mid, str) and mid.strip() else None


def custom_checkpoint(ctx, name: object, size: object, fmt: object, quantization: object) -> tuple[str, str] | None:
    """(weights, registration file) of the project's own registration of `name`, else None."""
    if ctx is None or not isinstance(name, str) or not name.strip():
        return None
    found = set()
    for rel, spec in _specs(ctx).get(name.strip().lower(), []):
        if not (_same(fmt, spec.get("model_format")) and _same(size, spec.get("model_size_in_billions"), size=True)
                and _same(quantization, spec.get("quantizations") or spec.get("quantization"))):
            continue
        w = _weights(spec)
        if w:
            found.add((w, rel))
    return found.pop() if len({w for w, _ in found}) == 1 else None
