"""A transformers whose config makes the model's head_dim a per-layer attribute, under a vLLM release
that reads it as one global value (check L125).

vLLM 0.14.0-0.27.1 build the ModelConfig through model_arch_config_convertor.py, whose get_head_size
reads `head_dim` from the text config (Gemma 4's class with `getattr(..., "head_dim", 0)`); from
transformers 5.15.0 Gemma 4's config (gemma4, gemma4_unified, diffusion_gemma) turns its
global_head_dim into per-layer head_dim overrides, and reading config.head_dim then raises
AmbiguousGlobalPerLayerAttributeError — a RuntimeError, which getattr's default does not catch — so
the server stops before the engine starts (vllm#52768). 0.28.0 asks the config whether it is
heterogeneous and builds per-layer configs. knowledge/vllm/transformers_per_layer.yaml
(tools/vllm_per_layer_head.py). The transformers the site runs: the project's own pin (every
release it allows at or past the first per-layer one), else vLLM's own image of the release (the
newest transformers the day it was built), else a fresh pip installation of the pinned release (the
newest its requirement allows: `tf_layer_fresh`, P1).
"""
from __future__ import annotations

import re
from datetime import date
from functools import lru_cache
from typing import Any

from vllm_kb.engine.check.transformers_gone import _allows_before, newest_allowed
from vllm_kb.engine.kb import resources, yamlio
from vllm_kb.engine.kb.versions import in_spans, parse

# vLLM's own images (CUDA and ROCm builds install the release's requirement, newest first)
_IMAGE = re.compile(r"^(?:docker\.io/)?vllm/vllm-openai(?:-rocm)?:v?(\d+\.\d+\.\d+(?:\.\d+)?(?:\.post\d+)?)$")


@lru_cache(maxsize=1)
def _table() -> dict:
    return yamlio.load_cached(resources.read_text("knowledge", "vllm", "transformers_per_layer.yaml")).data


def _minors(released: dict) -> list[str]:
    return sorted(released, key=parse)


def per_layer_fit(facts: dict, pin: Any, requires: str | None, image: str | None, vllm_released: dict,
                  released: dict) -> dict[str, Any]:
    """launch.tf_layer* where the site's transformers makes head_dim per-layer for the model type and
    its vLLM release reads it globally. `released`: transformers minor release → the day it reached
    PyPI (model_types.yaml); `vllm_released`: vLLM release → its day (release_dates.yaml)."""
    table = _table()
    release = str((facts.get("vllm") or {}).get("version") or "")
    model_type = (facts.get("model") or {}).get("model_type")
    since = (table.get("per_layer_head_dim") or {}).get(model_type or "")
    if not release or not since or facts.get("model_alternatives") or not in_spans(release, table.get("global_head_dim") or []):
        return {}
    known = _minors(released)
    spec = getattr(pin, "spec", None) if pin is not None else None
    out: dict[str, Any]
    if spec:
        if _allows_before(str(spec), since, known):  # an unreadable pin claims nothing
            return {}
        out = {"tf_layer_pin": pin.text, "tf_layer_pin_at": f"{pin.file}:{pin.line}"}
    elif pin is not None and getattr(pin, "source", "") == "git":
        return {}  # transformers from its repository: not judged
    elif image:
        m = _IMAGE.match(image)
        built, came = vllm_released.get(release), released.get(".".join(since.split(".")[:2]) + ".0")
        # the image holds the newest transformers the day it was built, one released that day included
        # (vllm#51744: the 0.27.0 image of 2026-08-10 holds transformers 5.15.0 of the same day)
        if not m or m.group(1) != release or not built or not came or date.fromisoformat(str(came)) > date.fromisoformat(str(built)):
            return {}
        out = {"tf_layer_pin": f"{image} (built {built}; transformers {since} came out {came})", "tf_layer_pin_at": image}
    elif (facts.get("vllm") or {}).get("pinned") and requires:
        newest = newest_allowed(requires, known)
        if newest is None or parse(newest) < parse(since):
            return {}
        out = {"tf_layer_pin": f"transformers{requires}", "tf_layer_pin_at": "", "tf_layer_fresh": True}
    else:
        return {}
    at = table.get("global_head_dim_at") or {}
    fixed = table.get("per_layer_at") or {}
    out.update(tf_layer="head_dim", tf_layer_type=model_type, tf_layer_since=since,
               tf_layer_at=f"{at.get('file')}:{at.get('line')}" if at else "",
               tf_layer_fix="<" + ".".join(since.split(".")[:2]))
    if fixed.get("release"):
        out.update(tf_layer_vllm_first=fixed["release"], tf_layer_vllm_fix=f">={fixed['release']}")
    return out
