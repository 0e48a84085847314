"""Whether vLLM's Transformers backend, which an architecture the release does not implement falls
back to (0.7.2+), can run the model once it has taken it: knowledge/vllm/transformers_backend.yaml
(tools/vllm_transformers_backend.py). The backend swaps each decoder layer's attention for vLLM's
and sizes the KV cache from them; it has no place for a layer that is not attention (linear
attention, a state-space mixer: refused by name from 0.30.0) and, before 0.28.0, gives every layer
one head size, which a model whose layers have two (Gemma 4's head_dim and global_head_dim) does
not fit. Before any of that, 0.8.3-0.29.0 take only a transformers class whose
`_supports_attention_backend` is set (is_backend_compatible()); a model type that never sets it is
refused by name. Its multimodal wrapper (0.10.0+) hands on what the transformers model's get_image_features
returns unchanged unless it is a tensor, up to 0.14.1: Qwen3-VL's (image embeddings, deepstack
features) pair then fails the engine's check of the dummy image's embeddings while it profiles
memory. Which model types have any of these is read from the transformers wheels."""
from __future__ import annotations

import json
from typing import Any

from vllm_kb.engine.check.startup_arch import _known
from vllm_kb.engine.kb.versions import parse, try_parse

# what 0.30.0+ raises while the model is built (models/transformers/base.py _create_attention_instances)
LAYER_REFUSAL = ("Layer {i} ({layer_type}) does not dispatch through the Transformers attention interface and "
                 "vLLM has no other way to handle it.")


# the runners that build the backend's pooling class (TransformersModel), which takes no image
_POOLING = ("embed", "embedding", "classify", "score", "reward", "pooling")


def fallback_facts(model: dict, table: dict, version: str | None, engine: dict | None = None,
                   tf_has_type: bool = True) -> dict[str, Any]:
    """`arch_fallback_fails` ("no_type", "compat", "linear", "head_size", "mm_features") where the backend cannot run the model in this
    release; `arch_fallback_doubt` ("linear") where it takes a model with linear-attention layers
    but the release has no refusal to say so. Nothing where the table or the model type is unknown.
    `tf_has_type`: whether a transformers the release's requirement admits knows the model type; where
    none does, nothing can fall back ("no_type": vLLM 0.16.0 requires transformers<5, Qwen3.5's
    qwen3_5_moe came in 5.2.0), unless config.json's auto_map names a model class of its own."""
    v = try_parse(version) if version else None
    mtype = model.get("model_type")
    if v is None or not table or not isinstance(mtype, str):
        return {}
    releases = [parse(r) for r in table["vllm_scanned"]]
    if not _known(table["fallback"], releases, v):
        return {}
    if not tf_has_type and not _remote_model(model):
        # no transformers the release allows maps the type, so the backend has no class to take
        # (and without a config class of vLLM's own, config.json fails before the registry is asked)
        return {"arch_fallback_fails": "no_type"}
    if tf_has_type and mtype in (table.get("no_attention_backend") or {}) \
            and _known(table.get("gate_attention_backend") or [], releases, v):
        # the registry asks the transformers class is_backend_compatible() before anything is built
        # (0.8.3-0.29.0: `_supports_attention_backend` alone) and the class never sets it
        return {"arch_fallback_fails": "compat"}
    if mtype in table["linear_layers"]:
        if _known(table["layer_refusal"], releases, v):
            return {"arch_fallback_fails": "linear", "arch_fallback_error": LAYER_REFUSAL}
        return {"arch_fallback_doubt": "linear"}
    if mtype in table["mixed_head_dim"] and _known(table["one_head_size"], releases, v):
        return {"arch_fallback_fails": "head_size"}
    if tf_has_type and model.get("multimodal") and mtype in (table.get("mm_tuple_features") or {}) \
            and _known(table.get("mm_features_passthrough") or [], releases, v) and _profiles_images(engine or {}):
        return {"arch_fallback_fails": "mm_features"}
    return {}


def _remote_model(model: dict) -> bool:
    """config.json's auto_map names a model class: with trust_remote_code the backend may run the
    repository's own code, whatever transformers maps (unknown where the config was not read)."""
    auto_map = model.get("auto_map")
    return isinstance(auto_map, list) and any(str(k).startswith("AutoModel") for k in auto_map)


def _profiles_images(engine: dict) -> bool:
    """The engine runs the encoder on dummy images while it profiles memory (gpu_model_runner.py
    profile_run): not with --skip-mm-profiling (0.10.1+), with no image allowed per prompt, or under
    a pooling runner, whose class takes no image."""
    if engine.get("skip_mm_profiling") is True or str(engine.get("task") or engine.get("runner") or "") in _POOLING:
        return False
    limit = engine.get("limit_mm_per_prompt")
    if isinstance(limit, str):
        try:
            limit = json.loads(limit)
        except ValueError:
            limit = None
    return not (isinstance(limit, dict) and limit.get("image") == 0)
