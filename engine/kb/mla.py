"""Whether a vLLM release runs a checkpoint's attention as MLA (multi-head latent attention).

A config with `kv_lora_rank` is not enough: ModelConfig.is_deepseek_mla accepts only the
hf_text_config model types its release lists (knowledge/vllm/mla_types.yaml, tools/vllm_mla_types.py);
any other type (MiniCPM3 in every release, Kimi-K2 before 0.10.0, GLM-4.7-Flash before 0.15.0) is
built with plain attention, K and V cached per head. Before 0.7.1 vLLM had no MLA at all. From
0.28.0 use_mla is also true for a model run on the Transformers backend whose config has
kv_lora_rank, so there only a natively registered architecture is judged by the list."""
from __future__ import annotations

from typing import Any, Callable

from vllm_kb.engine.kb.versions import Version, try_parse

_TRANSFORMERS_MLA = Version("0.28.0")  # vllm/config/model.py use_mla: using_transformers_backend() branch
_BIDIRECTIONAL = Version("0.29.0")  # use_mla: `if not getattr(hf_text_config, "is_causal", True): return False`
# what describes a model beyond its name: the catalog's family, a read config (or the catalog's shapes)
_DESCRIBED = ("family", "arch_source", "model_type", "architecture", "num_key_value_heads", "num_attention_heads", "head_dim")


def release_types(table: dict, version: str | None) -> frozenset[str] | None:
    """The model types `version` runs as MLA; empty before the first span; None when not known
    (no release, or one between or after the scanned releases that the spans do not settle)."""
    v = try_parse(version) if version else None
    spans = table.get("spans") or []
    if v is None or not spans:
        return None
    for s in spans:
        if Version(s["first"]) <= v <= Version(s["last"]):
            return frozenset(s["types"])
    if v < Version(spans[0]["first"]):
        return frozenset()
    for a, b in zip(spans, spans[1:]):  # a release between two spans: known where both agree
        if Version(a["last"]) < v < Version(b["first"]):
            return frozenset(a["types"]) if a["types"] == b["types"] else None
    return None


def mla_at(model: dict[str, Any], version: str | None, table: dict,
           native: Callable[[str, str], bool | None] | None = None) -> dict[str, Any]:
    """`model` with `mla` as `version` decides it, where the checkpoint's model type is read and the
    release's list is known; otherwise unchanged. `native(architecture, version)`: whether the
    release registers the architecture itself (from 0.28.0 an unregistered one may run on the
    Transformers backend, MLA by kv_lora_rank alone, so it is left as it is)."""
    mtype = model.get("text_model_type") or model.get("model_type")
    if not model.get("kv_lora_rank") or not isinstance(mtype, str) or mtype == "eagle":
        return model
    arch = model.get("architecture")
    if not model.get("text_model_type") and isinstance(arch, str) and arch.endswith("ForConditionalGeneration"):
        # a multimodal wrapper known by its outer type only (a catalog row, not a read config): vLLM
        # asks the text config's type (Kimi-K2.5: kimi_k25 outside, deepseek_v3 inside), unknown here
        return model
    types = release_types(table, version)
    if types is None:
        return model
    v = try_parse(version) if version else None
    # a bidirectional variant (config is_causal false) takes the plain attention path (use_mla, 0.29.0+)
    mla = mtype in types and not (model.get("is_causal") is False and v is not None and v >= _BIDIRECTIONAL)
    if not mla and v is not None and v >= _TRANSFORMERS_MLA:
        if not isinstance(arch, str) or native is None or native(arch, str(version)) is not True:
            return model
    return {**model, "mla": mla, "mla_release": mla}



def known_mla(model: dict[str, Any]) -> bool | None:
    """Whether the site's model is MLA, where something says so: the release's verdict on the
    checkpoint's type, a latent rank, the catalog's flag; False only beside a description of the
    model (a catalog family, a read config, its type, class or heads) — a model nothing describes has every flag
    False by default (engine/kb/models.py FLAGS), which says nothing of its attention. None: unknown."""
    if isinstance(model.get("mla_release"), bool):
        return model["mla_release"]
    if model.get("kv_lora_rank") or model.get("mla") is True:
        return True
    if model.get("mla") is False and any(model.get(k) for k in _DESCRIBED):
        return False
    return None
