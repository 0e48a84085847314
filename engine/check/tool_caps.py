"""What a tool that starts vLLM passes only once the model is known: GPUStack's worker writes
`--max-model-len 8192` when the model's derived length is longer and the project sets none
(engine/scan/deploy/gpustack.py puts the cap in the site's launch facts); and what a tool picks
itself that the memory estimate sizes with while the checks read it as unknown."""
from __future__ import annotations

from typing import Any


def passed_by_tool(launch: dict, model: dict | None, args: dict) -> dict[str, Any]:
    """The engine arguments the tool adds for this model (empty when its length is unknown)."""
    cap = launch.get("max_model_len_cap")
    limit = str((model or {}).get("max_context") or "")
    if cap and "max_model_len" not in args and limit.isdigit() and int(limit) > cap:
        return {"max_model_len": cap}
    return {}


def sized_by_tool(launch: dict, engine: dict, unread: set[str], cc: Any) -> tuple[dict, set[str]]:
    """(the arguments the memory estimate sizes with, those still unread) once a tool's own picks fill in."""
    sized = engine
    by_cc = launch.get("dtype_by_cc")
    if by_cc and "dtype" in unread and isinstance(cc, (int, float)):
        # a wrapper that picks the dtype by the GPU (unsloth: bfloat16 from compute capability 8.0,
        # else float16): the estimate sizes with its pick; the checks still read the dtype as unknown
        sized = {**engine, "dtype": by_cc[1] if cc >= by_cc[0] else by_cc[2]}
        unread = unread - {"dtype"}
    if fill := launch.get("sized_as"):
        # an operator that builds the command itself (KAITO): the estimate sizes with its picks, the
        # optimistic one where it depends on its release or the model, so the estimate never claims
        # too little memory; None leaves vLLM's default (a length the operator or vLLM fits to memory)
        sized = {**sized, **{k: v for k, v in fill.items() if k in unread and v is not None}}
        unread = unread - set(fill)
    return sized, unread
