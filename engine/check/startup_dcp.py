"""startup facts of decode context parallelism against the model's KV heads (L191).

From vLLM 0.11.1 ModelConfig.verify_with_parallel_config refuses a --decode-context-parallel-size
above 1 on a model without MLA unless the KV heads are replicated across the TP ranks enough
times for each DCP rank to hold its own copy: TP above the total KV heads, DCP at most
TP // KV heads, and the query heads per KV head divisible by DCP (asserts up to 0.26.0,
ValueError from 0.27.0; vllm/config/model.py 0.11.1:1169-1192, 0.34.0:1598-1627).

Before that, for every model, DCP must divide TP (L238): DCP splits each TP group, so
"tp_size=… must be divisible bydcp_size=…" (an assert in EngineArgs.create_engine_config
0.10.2–0.15.1, a ValueError in ParallelConfig 0.16.0–0.25.1, "by dcp_size" from 0.26.0, where only
a launch without prefill context parallelism is checked so: vllm/engine/arg_utils.py 0.10.2:1177,
vllm/config/parallel.py 0.16.0:354, 0.34.0:641)."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.check.startup_common import as_int
from vllm_kb.engine.kb.mla import known_mla


def _mla(model: dict) -> bool | None:
    # vLLM's use_mla as the release decides it (engine/kb/mla.py); a model with its heads read is known
    got = known_mla(model)
    return got if got is not None else (False if model.get("num_key_value_heads") else None)


def _refusal(tp: int, kv: int, q_per_kv: int, dcp: int) -> str | None:
    """Which of the three refusals vLLM raises first for this layout, or None when it starts."""
    if tp <= kv:
        return "tp"
    if dcp > tp // kv:
        return "max"
    if q_per_kv % dcp:
        return "q"
    return None


def _divides(tp: int, dcp: int) -> dict[str, Any]:
    """L238: DCP that does not divide TP, and the largest DCP below it that does (1 turns it off)."""
    if tp % dcp == 0:
        return {}
    return {"dcp_tp_indivisible": dcp, "dcp_tp_fit": next(d for d in range(dcp - 1, 0, -1) if tp % d == 0)}


def dcp_facts(model: dict, engine: dict) -> dict[str, Any]:
    dcp = as_int(engine.get("decode_context_parallel_size"))
    tp = as_int(engine.get("tensor_parallel_size"))
    if not dcp or dcp <= 1 or not tp:  # `--tensor-parallel-size $TP`: the split is unknown
        return {}
    div = _divides(tp, dcp)
    if _mla(model) is not False:  # MLA is exempt; an unknown attention is not judged
        return div
    kv, heads = as_int(model.get("num_key_value_heads")), as_int(model.get("num_attention_heads"))
    if not kv or not heads:
        return div
    q_per_kv = heads // kv
    out: dict[str, Any] = {**div, "dcp": dcp, "dcp_kv_heads": kv, "dcp_q_per_kv": q_per_kv, "dcp_max": tp // kv}
    why = _refusal(tp, kv, q_per_kv, dcp)
    out["dcp_ok"] = why is None
    if why:
        out["dcp_refused"] = why
        # the largest DCP below the asked one that vLLM accepts with this TP (ParallelConfig also
        # wants it to divide TP); 1 when none does, which turns decode context parallelism off
        out["dcp_fit"] = next(d for d in range(dcp - 1, 0, -1)
                              if d == 1 or (tp % d == 0 and _refusal(tp, kv, q_per_kv, d) is None))
    return out
