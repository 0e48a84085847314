"""A transformers pin whose functions refuse the calls the pinned vLLM release's own config class makes.

vLLM's config classes (vllm/transformers_utils/configs) are written against the transformers of the
day: vLLM 0.17.0-0.23.0's Qwen3.5 config calls `layer_type_validation(layer_types, num_hidden_layers)`,
which transformers takes only from 4.57.0, while the release's requirement still admits 4.56.x. Building
the model's config then stops with "TypeError: layer_type_validation() takes 1 positional argument but
2 were given" before anything loads. knowledge/vllm/transformers_calls.yaml
(tools/vllm_transformers_calls.py) lists each such call with the model types its config class serves and
the transformers releases that take it. Only a project's own pin is judged: what pip resolves beside
vLLM without one is the newest release its requirement admits, which takes the call.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from vllm_kb.engine.check.transformers_fit import _allows_from, release_requires
from vllm_kb.engine.check.transformers_since import _allows_some, _floor
from vllm_kb.engine.kb import resources, yamlio
from vllm_kb.engine.kb.versions import InvalidSpecifier, SpecifierSet, in_spans, parse


@lru_cache(maxsize=1)
def _table() -> dict:
    return yamlio.load_cached(resources.read_text("knowledge", "vllm", "transformers_calls.yaml")).data


def _refuses(row: dict, spec: str) -> bool:
    """Whether every transformers release `spec` allows refuses the call (it allows none from the first
    that takes it on)."""
    spans = row.get("accepts") or []
    if not spans:
        return True
    since = _floor(str(spans[0][0]))
    later = [str(v) for v in _table().get("transformers_scanned") or [] if parse(str(v)) > parse(since)]
    return not _allows_from(spec, since, later)


def transformers_calls(facts: dict, pin: Any, requires: dict) -> dict[str, Any]:
    """launch.tf_call* for the first call the release's own config class of the model type makes that
    every transformers release the project's pin allows refuses."""
    release = str((facts.get("vllm") or {}).get("version") or "")
    model_type = (facts.get("model") or {}).get("model_type")
    spec = getattr(pin, "spec", None) if pin is not None else None
    if not release or not isinstance(model_type, str) or not spec or facts.get("model_alternatives"):
        return {}
    if getattr(pin, "source", "") == "git":
        return {}
    try:
        SpecifierSet(spec)
    except InvalidSpecifier:
        return {}
    if not _allows_some(spec, release_requires(requires, release), [str(v) for v in _table().get("transformers_scanned") or []]):
        return {}  # a pin vLLM's own requirement refuses: pip stops first (transformers_range's finding)
    for row in _table().get("calls") or []:
        if model_type not in row["model_types"] or not in_spans(release, row["vllm"]) or not _refuses(row, spec):
            continue
        since = _floor(str(row["accepts"][0][0])) if row.get("accepts") else ""
        out: dict[str, Any] = {"tf_call": f"{row['call']}()", "tf_call_at": f"{row['file']}:{row['line']} in {row['at']}",
                               "tf_call_error": row["error"], "tf_call_since": since,
                               "tf_pin": pin.text, "tf_pin_at": f"{pin.file}:{pin.line}"}
        if since:
            out["tf_call_fix"] = f">={since}"
        return out
    return {}
