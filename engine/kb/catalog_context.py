"""The context length a catalog entry gives a model (engine/kb/models.py): what its config-level
model_max_length, its rope_scaling and a length written in the name change about it."""
from __future__ import annotations

import re

from vllm_kb.engine.kb.model_config import derived_max_len
from vllm_kb.engine.kb.versions import Version, try_parse

# a context length written in the name: -128k, -200K, -1M, _1048k (k up to 4096, M up to 10:
# "-125m" / "-360M" are parameter counts)
_CONTEXT = re.compile(r"(?:^|[-_.])(\d+(?:\.\d+)?)([kKmM])(?=$|[-_.])")


def name_context(short: str) -> int | None:
    """The context length the name announces (`-128k` → 131072, `-1M` → 1048576), if any."""
    for num, unit in _CONTEXT.findall(short):
        v = float(num)
        if unit in "kK" and 2 <= v <= 4096:
            return int(v * 1024)
        if unit in "mM" and 0 < v <= 10:
            return int(v * 1024 * 1024)
    return None


def catalog_model_max_length(facts: dict, arch: dict, version: str | None) -> None:
    """A catalog entry's config-level model_max_length (beside a smaller max_position_embeddings) is
    the derived length from vLLM 0.8.3, which prefers it (model_config.derived_max_len); from 0.10.0
    the tokenizer's own model_max_length, which the catalog does not hold, may cap it: unknown there
    (max_position_embeddings goes too, or the estimate would size the default context by it)."""
    mml = facts.get("model_max_length")
    v = try_parse(version) if version else None
    if not mml or (v is not None and v < Version("0.8.3")):
        return
    if v is not None and v < Version("0.10.0"):
        facts["max_context"] = mml
        facts["max_len_key"] = "model_max_length"
    else:
        facts.pop("max_context", None)
        facts.pop("max_len_key", None)
        arch.pop("max_position_embeddings", None)


def context_from_name(facts: dict, arch: dict, short: str) -> None:
    """A context length in the name that the catalog's does not match (a long-context variant the
    catalog does not list: Qwen2.5-7B-Instruct-1M, Llama-3-8B-Gradient-1048k, Yarn-Mistral-7b-128k)
    makes the catalog's a wrong fact: drop it, the limit is unknown unless config.json says it."""
    said = name_context(short)
    known = facts.get("max_context") or arch.get("max_position_embeddings")
    if not said or not known:
        return
    if said * 1000 / 1024 * 0.95 <= known <= said * 1.05:  # 128k = 128000 or 131072; 1M = 1010000 or 1048576
        return
    facts.pop("max_context", None)
    arch.pop("max_position_embeddings", None)
    facts.pop("max_len_key", None)


def rope_scaled(facts: dict, arch: dict, version: str | None) -> None:
    """A catalog entry's rope_scaling (config.json's) stretches the length the release derives as a
    checkpoint's own would (model_config.derived_max_len): deepseek-coder's linear ×4 over 16384
    positions makes vLLM's default max_model_len 65536, which the KV cache and, before chunked prefill,
    the profile run must hold."""
    rs = facts.pop("rope_scaling", None)
    base = facts.get("max_context") or arch.get("max_position_embeddings")
    if not isinstance(rs, dict) or not base:
        return
    cfg = {"max_position_embeddings": base, "rope_scaling": rs, "model_type": facts.get("model_type") or ""}
    limit, _ = derived_max_len(cfg, None, version)
    if limit and limit != base:
        facts["max_context"] = limit
        facts.setdefault("max_len_key", "max_position_embeddings")
