"""A Gemma 4 checkpoint without k_norm weights for its KV-shared layers (check L153).

Gemma 4's smaller models (E2B, E4B) let their last `num_kv_shared_layers` decoder layers reuse an
earlier layer's keys and values; those layers never apply a key norm, and checkpoints exported
without it (Google's QAT uploads, an SFT saved by transformers 5) list no
`layers.N.self_attn.k_norm.weight` for them. vLLM 0.19.0-0.29.0 builds a key norm in every layer
(vllm/model_executor/models/gemma4.py Gemma4Attention) and DefaultModelLoader then refuses the
unquantized checkpoint: "Following weights were not initialized from checkpoint: {…k_norm.weight…}".
0.30.0 builds no key norm in a KV-shared layer. Read from a checkpoint folder inside the project:
config.json (the text config's layer counts) and model.safetensors.index.json (the tensor names);
for a Hub id the project holds no copy of, from its knowledge/hub_uploads.yaml row
(`kv_shared_without_k_norm`, the model facts' `kv_shared_k_norm_missing` and `kv_shared_first`)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from vllm_kb.engine.kb.checkpoint import read_checkpoint, weight_names

_K_NORM = re.compile(r"(?:^|\.)layers\.(\d+)\.self_attn\.k_norm\.weight$")


def kv_shared_norm_fit(facts: dict, root: str | Path | None, base: str | Path | None) -> dict[str, Any]:
    """launch.kv_shared_k_norm_missing (how many KV-shared layers lack the weight) and
    launch.kv_shared_first (the first KV-shared layer), for a Gemma 4 checkpoint folder that lists
    key norms for the other layers but not for those."""
    name = (facts.get("model") or {}).get("name")
    ck = read_checkpoint(root, name, base, env={"VLLM_KB_HF_CACHE": "0"}) if isinstance(name, str) else None
    if ck is None or ck.where != "folder":
        model = facts.get("model") or {}
        missing, first = model.get("kv_shared_k_norm_missing"), model.get("kv_shared_first")
        if ck is None and isinstance(missing, int) and isinstance(first, int):  # the upload's row (Hub id)
            return {"kv_shared_k_norm_missing": missing, "kv_shared_first": first}
        return {}
    inner = ck.config.get("text_config")
    text: dict = inner if isinstance(inner, dict) else ck.config
    if not str(text.get("model_type") or ck.config.get("model_type") or "").startswith("gemma4"):
        return {}
    shared, layers = text.get("num_kv_shared_layers"), text.get("num_hidden_layers")
    if not isinstance(shared, int) or not isinstance(layers, int) or not 0 < shared < layers:
        return {}
    names = weight_names(root, name, base)
    if not names:
        return {}
    have = {int(m.group(1)) for n in names if "tower" not in n and (m := _K_NORM.search(n))}
    first = layers - shared
    if not any(i < first for i in have):  # the index names its key norms some other way: say nothing
        return {}
    missing = sum(1 for i in range(first, layers) if i not in have)
    return {"kv_shared_k_norm_missing": missing, "kv_shared_first": first} if missing else {}
