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
    types = release_types(table, version)
    if types is None:
        return model
    mla = mtype in types
    v = try_parse(version) if version else None
    if not mla and v is not None and v >= _TRANSFORMERS_MLA:
        arch = model.get("architecture")
        if not isinstance(arch, str) or native is None or native(arch, str(version)) is not True:
            return model
    return {**model, "mla": mla, "mla_release": mla}

