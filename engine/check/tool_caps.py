"""What a tool that starts vLLM passes only once the model is known: GPUStack's worker writes
`--max-model-len 8192` when the model's derived length is longer and the project sets none
(engine/scan/deploy/gpustack.py puts the cap in the site's launch facts)."""
from __future__ import annotations

from typing import Any


def passed_by_tool(launch: dict, model: dict | None, args: dict) -> dict[str, Any]:
    """The engine arguments the tool adds for this model (empty when its length is unknown)."""
    cap = launch.get("max_model_len_cap")
    limit = str((model or {}).get("max_context") or "")
    if cap and "max_model_len" not in args and limit.isdigit() and int(limit) > cap:
        return {"max_model_len": cap}
    return {}
