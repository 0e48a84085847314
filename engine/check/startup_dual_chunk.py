"""`startup.dual_chunk_refused`: a checkpoint with a dual_chunk_attention_config (Qwen2.5-*-1M) is
built, from vLLM 0.9.0, with two extra attention keywords (`layer_idx`, `dual_chunk_attention_config`)
that the Qwen2-family model files hand Attention, which passes them to the backend's implementation
class. Only the backends knowledge/vllm/dual_chunk.yaml lists under `takes_kwargs` accept them
(V0's DualChunkFlashAttention 0.9.0–0.10.2, FlexAttention from 0.10.2); every other one stops the
model build with Python's TypeError "… got an unexpected keyword argument 'layer_idx'".

Which backend runs: the one the launch forces (startup.backend), else the one the selector picks
where engine/check/startup_attn.py knows it (startup.attn_backend). Where the pick is not known
(0.11.1+ validates candidates in order, Blackwell) the CUDA candidates before FlexAttention —
FlashAttention, FlashInfer, Triton — all lack the keywords, and FlexAttention comes last: it is
picked only where they all refuse the model, which for a 16-bit Qwen2-family model on a GPU of
compute capability 8.0 or more none does. In V0 (0.9.0–0.10.x with VLLM_USE_V1=0, or the fallback
0.9.0–0.10.2 take when VLLM_ATTENTION_BACKEND names a backend V1 lacks) XFormers and
FlashAttention lack them too."""
from __future__ import annotations

from typing import Any

_IGNORED = {"NO_ATTENTION"}  # the placeholder of attention-free layers, never picked for these models


def dual_chunk_facts(model: dict, arch: str | None, table: dict, version: str, startup: dict,
                     gpu: dict, env: dict) -> dict[str, Any]:
    if model.get("dual_chunk_attention") is not True or not arch:
        return {}
    row = ((table or {}).get("releases") or {}).get(version)
    if row is None or arch not in row.get("architectures", ()):
        return {}  # before 0.9.0 the config is not read; a release not scanned says nothing
    takes = set(row.get("takes_kwargs") or ()) - _IGNORED
    out: dict[str, Any] = {"dual_chunk_v0_backend": bool(row.get("v0_backend"))}
    forced = startup.get("backend")
    forced = forced.strip() if isinstance(forced, str) and forced.strip() else None
    if forced:
        if forced == "DUAL_CHUNK_FLASH_ATTN" and str(env.get("VLLM_USE_V1", "")).strip() == "1":
            return out  # V1 asked for outright refuses the V0-only backend with its own error
        return {**out, "dual_chunk_refused": forced not in takes}
    if not (takes - {"DUAL_CHUNK_FLASH_ATTN"}):
        return {**out, "dual_chunk_refused": True}  # no backend the selector may pick takes them
    picked = startup.get("attn_backend")
    if isinstance(picked, str) and picked:
        return {**out, "dual_chunk_refused": picked not in takes}
    cc = gpu.get("compute_capability")
    if isinstance(cc, (int, float)) and not isinstance(cc, bool) and cc >= 8.0 \
            and startup.get("dtype") in ("bfloat16", "float16"):
        return {**out, "dual_chunk_refused": True}
    return out
