"""startup facts of tensor parallelism: the head size, whether each of vLLM's head-splitting rules
holds for the asked TP, and the nearest TP that satisfies them all (L1, L2)."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.check.startup_common import as_int
from vllm_kb.engine.kb.models import head_dim

_TP_LIMIT = 64


def divides_heads(model: dict, tp: int) -> dict[str, bool]:
    """Each of vLLM's rules for splitting heads over `tp` ranks, where the heads are known:
    query heads evenly (ModelConfig.verify_with_parallel_config), KV heads evenly or replicated a
    whole number of times (QKVParallelLinear → divide()), the vision tower's heads evenly."""
    out = {}
    heads = as_int(model.get("num_attention_heads"))
    if heads:
        out["heads"] = heads % tp == 0
    kv = as_int(model.get("num_key_value_heads"))
    if kv and not model.get("kv_lora_rank"):
        out["kv"] = (tp % kv == 0) if tp >= kv else (kv % tp == 0)
    vision = as_int(model.get("vision_num_heads"))
    if vision and model.get("multimodal", True):
        out["vision"] = vision % tp == 0
    return out


# FlashAttentionBackend.get_supported_head_sizes() of the V1 engine (0.6.4–0.11.0)
FLASH_ATTN_HEAD_SIZES = frozenset({32, 64, 96, 128, 160, 192, 224, 256})


def parallel_facts(model: dict, engine: dict, gpu: dict) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if model.get("hidden_size") and model.get("num_attention_heads") and not model.get("kv_lora_rank"):
        out["head_size"] = head_dim(model)
        out["head_size_fa_ok"] = out["head_size"] in FLASH_ATTN_HEAD_SIZES
    if "tensor_parallel_size" not in engine:
        return out  # written but unreadable (`--tensor-parallel-size $TP`): the split is unknown
    tp = as_int(engine.get("tensor_parallel_size")) or 1
    out["tp"] = tp
    rules = divides_heads(model, tp)
    if not rules:
        return out
    out.update({f"tp_{k}_ok": v for k, v in rules.items()})
    if all(rules.values()):
        return out
    # the nearest TP that satisfies every rule vLLM applies: the smallest above the asked one when
    # the GPUs the site has allow it (each GPU then holds less than was planned, so the memory
    # still fits), else the largest below
    count = as_int(gpu.get("count"))
    up = [t for t in range(tp + 1, min(count or tp, _TP_LIMIT) + 1) if all(divides_heads(model, t).values())]
    cap = min(tp, count or tp, _TP_LIMIT)
    out["tp_fit"] = up[0] if up else next(t for t in range(cap, 0, -1) if all(divides_heads(model, t).values()))
    return out
