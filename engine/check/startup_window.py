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


def window_rope_facts(model: dict, engine: dict, table: dict, version: str) -> dict[str, Any]:
    lengths = table.get("lengths") or {}
    row = _row(lengths.get("window_off_rope", ()), version)
    rope = model.get("rope_type")
    if row is None or not isinstance(rope, str):
        return {}
    model_type = str(model.get("model_type") or "")
    window = model.get("sliding_window_size")
    if engine.get("disable_sliding_window") is True:
        off = "flag"
    elif isinstance(window, int) and window > 0 and any(
            model_type in r["model_types"] and SpecifierSet(r["vllm"]).contains(version)
            for r in lengths.get("window_capped", ())):
        off = "release"
    else:
        return {}
    kept = rope in row["kept"] or any(part in model_type for part in row.get("model_types_containing", ()))
    return {"window_off": off, "window_rope_refused": not kept}
