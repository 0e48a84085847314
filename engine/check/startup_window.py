"""`startup.window_rope_refused`: ModelConfig's _get_and_verify_max_len (vLLM 0.4.3–0.11.2) raises
NotImplementedError("Disabling sliding window is not supported for models with rope_scaling") when
the sliding window is off and the checkpoint's rope_scaling type is one it would stretch the
context with. The window is off when the site passes --disable-sliding-window, or where the release
turns it off itself (Gemma 2 in 0.5.1–0.6.4: knowledge/vllm/startup.yaml lengths.window_capped).
The types each release lets through are lengths.window_off_rope; present only when the rope type
and the window are known."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.kb.versions import SpecifierSet


def _row(rows, version: str) -> dict | None:
    return next((r for r in rows if SpecifierSet(r["vllm"]).contains(version)), None)


def release_turns_window_off(model: dict, table: dict, version: str) -> bool:
    """Whether this release runs the model with its sliding window off and its context capped to
    the window (knowledge/vllm/startup.yaml lengths.window_capped: Gemma 2 in 0.5.1–0.6.4)."""
    window = model.get("sliding_window_size")
    return isinstance(window, int) and window > 0 and any(
        model.get("model_type") in r["model_types"] and SpecifierSet(r["vllm"]).contains(version)
        for r in (table.get("lengths") or {}).get("window_capped", ()))


def flag_caps_window(model: dict, table: dict, version: str) -> bool:
    """Whether --disable-sliding-window caps this model's derived max_model_len to its window in this
    release (knowledge/vllm/startup.yaml lengths.window_flag_capped)."""
    window = model.get("sliding_window_size")
    return isinstance(window, int) and window > 0 and any(
        SpecifierSet(r["vllm"]).contains(version) for r in (table.get("lengths") or {}).get("window_flag_capped", ()))


def window_rope_facts(model: dict, engine: dict, table: dict, version: str) -> dict[str, Any]:
    lengths = table.get("lengths") or {}
    row = _row(lengths.get("window_off_rope", ()), version)
    rope = model.get("rope_type")
    if row is None or not isinstance(rope, str):
        return {}
    model_type = str(model.get("model_type") or "")
    if engine.get("disable_sliding_window") is True:
        off = "flag"
    elif release_turns_window_off(model, table, version):
        off = "release"
    else:
        return {}
    kept = rope in row["kept"] or any(part in model_type for part in row.get("model_types_containing", ()))
    return {"window_off": off, "window_rope_refused": not kept}
