"""The token budget speculative decoding takes from each scheduled batch (L64).

From 0.20.0 VllmConfig._set_max_num_scheduled_tokens (vllm/config/vllm.py) lowers the scheduler's
budget to max_num_batched_tokens − max_num_new_slots_for_drafting × max_num_seqs and raises
"max_num_scheduled_tokens is set to … which does not allow any tokens to be scheduled" when that is
zero or less. The slots each request adds while drafting (SpeculativeConfig
.max_num_new_slots_for_drafting, vllm/config/speculative.py) changed with the releases, K being
num_speculative_tokens:
  0.20.0–0.27.x  parallel drafting (`parallel_drafting`, set by the method for dflash — and dspark
                 from 0.26 —) K − 1, plus 1 for a draft model (`draft_model`)
  0.28.0–0.32.x  dflash K; parallel drafting K − 1 (K with a draft model); a draft model 1
  0.33.0         dflash and dspark 0 (a separate query pass); the rest as in 0.28
  0.34.0 on      a draft model 1, every other method 0 (v1/worker/gpu/spec_decode speculator configs)
Before 0.20.0 the release does not refuse, so nothing is said."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.check.startup_common import as_int
from vllm_kb.engine.kb.versions import Version, try_parse

FIRST = Version("0.20.0")


def draft_slots(spec: dict, version: str | None) -> int | None:
    """max_num_new_slots_for_drafting of a speculative config in a release (None: not known, or a
    release that does not refuse)."""
    v = try_parse(version) if version else None
    method = spec.get("method")
    if v is None or v < FIRST or not isinstance(method, str):
        return None
    draft_model = method == "draft_model"
    if v >= Version("0.34.0"):
        return 1 if draft_model else 0
    k = as_int(spec.get("num_speculative_tokens"))
    user_parallel = spec.get("parallel_drafting")
    if k is None or (user_parallel is not None and not isinstance(user_parallel, bool)):
        return None
    if v < Version("0.28.0"):
        parallel = bool(user_parallel) or method in ("dflash", "dspark")
        return (k - 1 if parallel else 0) + (1 if draft_model else 0)
    if method == "dflash":
        return k if v < Version("0.33.0") else 0
    if method == "dspark" and v >= Version("0.33.0"):
        return 0
    if bool(user_parallel) or method == "dspark":
        return k if draft_model else k - 1
    return 1 if draft_model else 0


def _budget(engine: dict, passed: dict, startup: dict) -> tuple[int, int] | None:
    """(max_num_seqs, max_num_batched_tokens) as SchedulerConfig leaves them: a max_num_batched_tokens
    left to vLLM is raised to max_model_len without chunked prefill, and an unset max_num_seqs is
    lowered to max_num_batched_tokens (0.10.1 on)."""
    seqs, batched = as_int(engine.get("max_num_seqs")), as_int(engine.get("max_num_batched_tokens"))
    if seqs is None or batched is None:
        return None
    if passed.get("max_num_batched_tokens") is None and startup.get("chunked_prefill") is not True:
        if as_int(startup.get("max_len")) is None:
            return None
        batched = max(batched, startup["max_len"])
    if passed.get("max_num_seqs") is None:
        seqs = min(seqs, batched)
    return seqs, batched


def spec_facts(engine: dict, passed: dict, startup: dict, version: str | None) -> dict[str, Any]:
    """`spec_draft_slots`, `spec_scheduled_tokens` (the budget left, as vLLM computes it) and
    `spec_batched_tokens` (the max_num_batched_tokens that keeps the budget the drafting takes
    away), where the speculative config, max_num_seqs and max_num_batched_tokens are known."""
    spec = engine.get("speculative_config")
    if not isinstance(spec, dict) or engine.get("max_num_scheduled_tokens") is not None:
        return {}
    out = _lora_budget(engine, spec, passed, startup, version)
    slots = draft_slots(spec, version)
    budget = _budget(engine, passed, startup)
    if slots is None or budget is None:
        return out
    seqs, batched = budget
    return {**out, "spec_draft_slots": slots, "spec_scheduled_tokens": batched - slots * seqs,
            "spec_batched_tokens": batched + slots * seqs, "spec_max_num_seqs": seqs, "spec_max_num_batched_tokens": batched}


def _lora_budget(engine: dict, spec: dict, passed: dict, startup: dict, version: str | None) -> dict[str, Any]:
    """L253: with LoRA, EngineArgs.create_engine_config (0.11.1+) wants max_num_batched_tokens at least
    max_num_seqs × (num_speculative_tokens + 1), "Consider increasing max_num_batched_tokens or
    decreasing num_speculative_tokens" otherwise (vllm/engine/arg_utils.py 0.11.1:1700, 0.34.0:2758)."""
    v = try_parse(version) if version else None
    k = as_int(spec.get("num_speculative_tokens"))
    budget = _budget(engine, passed, startup)
    if v is None or v < Version("0.11.1") or engine.get("enable_lora") is not True or k is None or budget is None:
        return {}
    seqs, batched = budget
    need = seqs * (k + 1)
    return {"spec_lora_tokens_needed": need, "spec_lora_short": batched < need,
            "spec_max_num_seqs": seqs, "spec_max_num_batched_tokens": batched}
