"""Speculative decoding on a model with Mamba-style layers (L76).

vLLM's V1 engine refused it while it collected the KV-cache specs, after the model was built:
NotImplementedError("Mamba with speculative decoding is not supported yet.") from
GPUModelRunner.get_kv_cache_spec, then from MambaBase.get_kv_cache_spec (0.11.1), for every
architecture whose module builds a Mamba-style layer (Mamba/Mamba2 mixers, MiniMax's linear
attention, LFM2's short convolution, Kimi Linear's delta attention, PLaMo 2), except the model
types the check skips (Qwen3-Next from 0.10.2); 0.17.0 lifts it. The releases, lines and
architectures are knowledge/vllm/mamba_spec.yaml (tools/vllm_mamba_spec.py).

Said only from 0.10.1, where those models run on V1 and a separate draft model is refused before
this (G3) until 0.15.0: what 0.9.2–0.10.1 did with a hybrid on V0 or a draft model is not known
here, so nothing is said there."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.check.startup_draft import plain_draft
from vllm_kb.engine.kb.versions import Version, try_parse

FIRST = Version("0.10.1")
DRAFT_MODELS_FROM = Version("0.15.0")
# architectures vLLM also builds without a single Mamba layer (granite-4.0-micro: GraniteMoeHybrid
# with every layer_types entry "attention", ModelConfig.is_hybrid): said only for a checkpoint the
# catalog places in the hybrid family
_MAYBE_PLAIN = {"GraniteMoeHybridForCausalLM": "granite-4.0-h"}


def _method(spec: dict) -> str | None:
    """The speculative method as far as it is known: 'draft_model', another method, or None."""
    method, model = spec.get("method"), spec.get("model")
    if isinstance(method, str) and method:
        return method
    if isinstance(model, str) and model:
        return "draft_model" if plain_draft(model) else "named"
    return None


def mamba_spec_facts(engine: dict, model: dict, arch: str | None, v1: Any, table: dict, version: str | None) -> dict[str, Any]:
    """`mamba_spec_refused` (the raise's file:line in that release) where the target has
    Mamba-style layers, a speculative config is set, and that release refuses the pair."""
    v = try_parse(version) if version else None
    spec = engine.get("speculative_config")
    if v is None or v < FIRST or not arch or v1 is False or not isinstance(spec, dict) or not spec:
        return {}
    row = (table.get("releases") or {}).get(str(v))
    if not row or arch not in row["architectures"]:
        return {}
    if arch in _MAYBE_PLAIN and model.get("family") != _MAYBE_PLAIN[arch]:
        return {}
    method = _method(spec)
    if method is None or (method == "draft_model" and v < DRAFT_MODELS_FROM):
        return {}
    return {"mamba_spec_refused": f"{row['file']}:{row['line']}", "mamba_spec_method": method}
