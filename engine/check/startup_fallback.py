"""Whether vLLM's Transformers backend, which an architecture the release does not implement falls
back to (0.7.2+), can run the model once it has taken it: knowledge/vllm/transformers_backend.yaml
(tools/vllm_transformers_backend.py). The backend swaps each decoder layer's attention for vLLM's
and sizes the KV cache from them; it has no place for a layer that is not attention (linear
attention, a state-space mixer: refused by name from 0.30.0) and, before 0.28.0, gives every layer
one head size, which a model whose layers have two (Gemma 4's head_dim and global_head_dim) does
not fit. Which model types have either is read from the transformers wheels."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.check.startup_arch import _known
from vllm_kb.engine.kb.versions import parse, try_parse

# what 0.30.0+ raises while the model is built (models/transformers/base.py _create_attention_instances)
LAYER_REFUSAL = ("Layer {i} ({layer_type}) does not dispatch through the Transformers attention interface and "
                 "vLLM has no other way to handle it.")


def fallback_facts(model: dict, table: dict, version: str | None) -> dict[str, Any]:
    """`arch_fallback_fails` ("linear", "head_size") where the backend cannot run the model in this
    release; `arch_fallback_doubt` ("linear") where it takes a model with linear-attention layers
    but the release has no refusal to say so. Nothing where the table or the model type is unknown."""
    v = try_parse(version) if version else None
    mtype = model.get("model_type")
    if v is None or not table or not isinstance(mtype, str):
        return {}
    releases = [parse(r) for r in table["vllm_scanned"]]
    if not _known(table["fallback"], releases, v):
        return {}
    if mtype in table["linear_layers"]:
        if _known(table["layer_refusal"], releases, v):
            return {"arch_fallback_fails": "linear", "arch_fallback_error": LAYER_REFUSAL}
        return {"arch_fallback_doubt": "linear"}
    if mtype in table["mixed_head_dim"] and _known(table["one_head_size"], releases, v):
        return {"arch_fallback_fails": "head_size"}
    return {}
