"""What one memory estimate is about (the model, GPU, engine arguments and release behaviour of a
site), the assumptions it records on the way, and the engine arguments it does arithmetic with."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from vllm_kb.engine.check.memory.reserve import batched_tokens
from vllm_kb.engine.check.memory.runtime import Runtime, human_int


class Notes:
    """The assumptions of one estimate, in the order they were made."""

    def __init__(self) -> None:
        self.items: list[dict[str, Any]] = []

    def add(self, key: str, value: Any) -> Any:
        self.items.append({"key": key, "value": value})
        return value


@dataclass(frozen=True)
class Site:
    """What one estimate is about: model, GPU, engine arguments, release behaviour."""
    model: dict
    gpu: dict
    engine: dict
    rt: Runtime
    tp: int
    pp: int

    @property
    def has_dims(self) -> bool:
        return bool(self.model.get("num_hidden_layers") and self.model.get("hidden_size"))

    @property
    def max_len(self) -> int:
        m, e = self.model, self.engine
        given = human_int(e.get("max_model_len"))
        if given and given > 0:  # -1 / "auto": vLLM fits the context to memory; size the model's
            return given
        return int(m.get("max_context") or m.get("max_position_embeddings") or 4096)

    @property
    def max_len_known(self) -> bool:
        """False when max_len is the 4096 stand-in: no max_model_len and no known model context."""
        given = human_int(self.engine.get("max_model_len"))
        return bool((given and given > 0) or self.model.get("max_context") or self.model.get("max_position_embeddings"))

    @property
    def batched(self) -> int:
        return batched_tokens(self.engine, self.max_len, self.rt, self.model)

    def with_tp(self, tp: int) -> "Site":
        return Site(self.model, self.gpu, self.engine, self.rt, tp, self.pp)


# Arguments the sizing does arithmetic with; a site can write anything there ("$TP", "\x01128").
_NUMERIC_ARGS = {"tensor_parallel_size": int, "pipeline_parallel_size": int, "data_parallel_size": int,
                 "max_num_seqs": int, "block_size": int, "gpu_memory_utilization": float, "cpu_offload_gb": float}


def numeric_args(engine: dict) -> dict:
    """The engine arguments with every numeric one a finite number, or dropped (its default is used)."""
    out = dict(engine)
    for key, typ in _NUMERIC_ARGS.items():
        v = out.get(key)
        if v is None or (isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)):
            continue
        try:
            f = float(v)
            out[key] = typ(f) if math.isfinite(f) else None
        except (TypeError, ValueError, OverflowError):
            out[key] = None
        if out[key] is None:
            del out[key]
    return out
