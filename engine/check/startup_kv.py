"""Whether the attention backend vLLM picks by itself refuses the site's FP8 KV cache, from
knowledge/vllm/kv_cache.yaml (tools/vllm_kv_cache.py reads it out of every release): the row for
the release, the GPU's compute capability, the model kind (MLA or not), the dtype and whether
VLLM_USE_V1=1 and a VLLM_ATTENTION_BACKEND are set (a forced backend only matters for V1's own
refusal of 0.8-0.10; otherwise L13 and L8's Triton rule judge it). An unknown model kind (engine/kb/mla.py
known_mla: a model nothing describes) gives only a refusal both kinds meet, an unknown GPU only the rows
every generation shares: never a guess."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.kb.mla import known_mla
from vllm_kb.engine.kb.versions import SpecifierSet

_KV = ("fp8", "fp8_e4m3", "fp8_e5m2")
_HOLE = re.compile(r"\{[A-Za-z_][^{}]*\}")


def kv_facts(facts: dict, table: dict, version: str | None, backend: str | None) -> dict[str, Any]:
    """`backend`: the one the site forces (FLASH_ATTN_VLLM_V1 is what V1 picks anyway)."""
    engine, env = facts.get("engine") or {}, facts.get("env") or {}
    kv = str(engine.get("kv_cache_dtype") or "").strip().lower()
    cc = (facts.get("gpu") or {}).get("compute_capability")
    mla = known_mla(facts.get("model") or {})
    if kv not in _KV or not version or not table:
        return {}
    forced = "set" if backend and backend != "FLASH_ATTN_VLLM_V1" else "unset"
    v1 = "1" if str(env.get("VLLM_USE_V1", "")).strip().lower() in ("1", "true") else "unset"
    if mla is not None:
        return _refusal(table, mla, kv, cc, version, v1, forced)
    # a model whose attention is not known: judged only where both kinds meet the same refusal
    plain, latent = _refusal(table, False, kv, cc, version, v1, forced), _refusal(table, True, kv, cc, version, v1, forced)
    return plain if plain and latent and plain["kv_fix"] == latent["kv_fix"] else {}


def _refusal(table: dict, mla: bool, kv: str, cc, version: str, v1: str, forced: str) -> dict[str, Any]:
    every = set(table.get("gpus") or [])
    for row in table.get("rows") or []:
        if row["mla"] != mla or kv not in row["kv"] or row["v1_env"] not in ("any", v1) or row["backend_env"] != forced:
            continue
        # an unknown GPU only where every generation refuses
        on_gpu = any(abs(cc - c) < 0.05 for c in row["cc"]) if isinstance(cc, (int, float)) else set(row["cc"]) >= every
        if not on_gpu or not SpecifierSet(row["vllm"]).contains(version):
            continue
        text = row["text"].replace("{feature_name}", "--kv-cache-dtype")
        return {"kv_refused": True, "kv_backend": row["backend"], "kv_fix": row["fix"],
                "kv_error": _HOLE.sub("…", text), "kv_model": "MLA" if mla else "multi-head"}
    return {}
