"""Whether the release can split the model's vocabulary over the tensor-parallel ranks.

The embedding and the LM head divide their vocabulary rows by the TP size while the model is built
and assert "<rows> is not divisible by <tp>" (vllm/model_executor/layers/vocab_parallel_embedding.py
divide(); 0.1.x: parallel_utils/tensor_parallel/layers.py). From 0.2.2 the layer first pads the
rows to a multiple of 64, so only a TP with an odd factor can fail; before, the rows are the
checkpoint's vocabulary unless the architecture's model file rounds it up
(knowledge/vllm/vocab_padding.yaml, tools/vllm_vocab_padding.py). With LoRA the padding and the
added rows differ (lora_vocab_padding_size, lora_extra_vocab_size): left undecided."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.check.startup_common import as_int
from vllm_kb.engine.kb.versions import try_parse


def _within(version, spans) -> bool:
    for first, last in spans or ():
        lo, hi = try_parse(str(first)), try_parse(str(last))
        if lo is not None and hi is not None and lo <= version <= hi:
            return True
    return False


def vocab_rows(model: dict, table: dict, version: str) -> int | None:
    """The vocabulary rows the release splits over TP ranks; None where that is not known."""
    v, vocab = try_parse(version), as_int(model.get("vocab_size"))
    if v is None or not vocab:
        return None
    v = try_parse(".".join(map(str, v.release))) or v  # 0.2.1.post1 runs 0.2.1's code
    pad = int(table.get("pad_to") or 64)
    if _within(v, [table.get("layer_pads")] if table.get("layer_pads") else []):
        return -(-vocab // pad) * pad
    arch = model.get("architecture")
    if not arch or not _within(v, (table.get("split") or {}).get(arch)):
        return None  # an architecture this early release does not split by vocabulary (or an unknown one)
    return -(-vocab // 64) * 64 if _within(v, (table.get("model_pads") or {}).get(arch)) else vocab


def vocab_facts(model: dict, engine: dict, table: dict, version: str, tp_fit, count: int | None = None) -> dict[str, Any]:
    """startup.vocab_rows, startup.tp_vocab_ok and, when it fails, startup.tp_vocab_fit: a TP that
    splits the rows and every head rule (tp_fit(t) says whether t splits the heads), chosen as the
    head rules' own fit is: the smallest above the asked one that the site's `count` GPUs allow, else
    the largest below (so L67 and L1/L2 never propose two sizes for one launch)."""
    tp = as_int(engine.get("tensor_parallel_size"))
    if not tp or tp <= 1 or engine.get("enable_lora"):
        return {}
    rows = vocab_rows(model, table, version)
    if rows is None:
        return {}
    out: dict[str, Any] = {"vocab_rows": rows, "tp_vocab_ok": rows % tp == 0,
                           "tp_vocab_ok_padded": -(-int(model["vocab_size"]) // 64) * 64 % tp == 0}
    if not out["tp_vocab_ok"]:
        up = [t for t in range(tp + 1, min(count or tp, 64) + 1) if rows % t == 0 and tp_fit(t)]
        out["tp_vocab_fit"] = up[0] if up else next(t for t in range(tp - 1, 0, -1) if rows % t == 0 and tp_fit(t))
    return out
