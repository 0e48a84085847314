"""An AWQ or GPTQ checkpoint whose quantization config is not read here (a Hub upload the catalog has
no entry for, a local folder the project does not hold), served with tensor parallelism: the widths
are the base model's (engine/kb/model_identity.py), the group size is not known. AWQ's and GPTQ's
layers refuse a row-parallel shard (down_proj: intermediate_size / TP) that splits a group ("The input
size is not aligned with the quantized weight shape", vllm/model_executor/layers/quantization/awq.py
0.2.2:84, gptq.py 0.2.7:101), and 128 is the group AutoAWQ and AutoGPTQ write by default, so a shard
that is not a multiple of 128 is a likely refusal, never a certain one (check L75, at P1): a group of
64 or 32 splits it whole, and an upload may pad its widths. engine/check/startup_quant_tp.py judges
the checkpoints whose own config gives the group."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.kb.model_arith import has_dense_mlp

DEFAULT_GROUP = 128  # AutoAWQ's q_group_size and AutoGPTQ's group_size defaults
_METHODS = ("awq", "gptq")


def group_guess(facts: dict, out: dict) -> dict[str, Any]:
    """`qtp_guess_shard` / `qtp_guess_width`: the dense MLP's down-projection shard per TP rank where it
    is not a multiple of the default group; {} where the config's own group is known (L75 judges it
    for certain), where the method is another, or where the widths are only a family's."""
    model, engine = facts.get("model") or {}, facts.get("engine") or {}
    tp, method = out.get("tp"), out.get("quant_method")
    if "qtp_ok" in out or not isinstance(tp, int) or tp < 2 or model.get("quant_method") not in _METHODS:
        return {}
    if method not in (model["quant_method"], f"{model['quant_method']}_marlin", "marlin"):
        return {}  # another method forced (L9 speaks)
    if model.get("quant_group_size") is not None or model.get("quant_source") in ("config", "catalog") or model.get("dims_family"):
        return {}
    if engine.get("enable_expert_parallel") or not has_dense_mlp(model) or model.get("num_experts"):
        return {}  # the dense MLP of a dense model only
    inter = model.get("intermediate_size")
    if not isinstance(inter, int) or isinstance(inter, bool) or inter <= 0 or inter % tp:
        return {}
    shard = inter // tp
    if shard % DEFAULT_GROUP == 0 or inter % DEFAULT_GROUP:
        return {}  # a whole shard, or a width the default group does not divide even unsplit (then not a default upload)
    return {"qtp_guess_shard": shard, "qtp_guess_width": inter, "qtp_guess_group": DEFAULT_GROUP}
