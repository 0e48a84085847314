"""The KV cache of the tightest GPU (every pipeline stage profiles its own memory and vLLM sizes all
caches to the smallest block count): its bytes and tokens, the longest request that fits, the
gpu_memory_utilization and max_num_seqs that would make room, where the shortfall lies within the
estimate's own error, and what a hybrid state-space model adds."""
from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from vllm_kb.engine.check.memory.bands import SUGGEST_MARGIN, deficit_band, error_band, shortfall_band
from vllm_kb.engine.check.memory.budget import gpu_budget
from vllm_kb.engine.check.memory.graphs import cudagraph_mode
from vllm_kb.engine.check.memory.kv import (KVLayout, hybrid_manager_on, kv_capacity, kv_element_bytes, kv_layer_count,
                                            kv_layout, mla_cache, pp_stage_layers, safe_len)
from vllm_kb.engine.check.memory.runtime import GIB, human_int, profile_seqs
from vllm_kb.engine.check.memory.site import Notes, Site
from vllm_kb.engine.check.memory.ssm import align_refusal, seqs_refusal, speculative


def kv_facts(site: Site, stages_w: list[float], notes: Notes) -> dict[str, Any]:
    """KV cache of the tightest GPU. Every pipeline stage profiles its own memory (only the last
    samples; the first and last also hold the embedding and LM head) and vLLM sizes all caches to
    the smallest block count."""
    model, engine, rt = site.model, site.engine, site.rt
    stages = pp_stage_layers(model["num_hidden_layers"], site.pp, rt.pp_partition)
    best: tuple[dict, KVLayout, float] | None = None
    kv_bytes = human_int(engine.get("kv_cache_memory_bytes"))
    tightest, lows = len(stages) - 1, []
    for i, layers in enumerate(stages):
        last = i == len(stages) - 1
        available = gpu_budget(site, last, stage=i)["usable"] - stages_w[i]
        if kv_bytes:
            available = float(kv_bytes)
        layout = kv_layout(model, engine, site.tp, layers, rt)
        if not kv_bytes:
            available -= layout.v0_state  # V0 allocates the Mamba states in the profile run
        lows.append(available)
        cap = kv_capacity(layout, max(available, 0.0), site.max_len, site.batched, rt)
        if best is None or cap["kv_blocks"] < best[0]["kv_blocks"]:
            best, tightest = (cap, layout, available), i
    assert best is not None  # there is always a last stage
    weights_per_gpu = stages_w[-1]
    cap, layout, available = best
    if site.pp > 1 and not kv_bytes and rt.pp_whole_model_check:
        # 0.14-0.16 check one request of the whole model's layers against the smallest stage's memory
        layout, available = kv_layout(model, engine, site.tp, model["num_hidden_layers"], rt), min(lows)
        whole = kv_capacity(layout, max(available, 0.0), site.max_len, site.batched, rt)
        cap.update(fits_max_model_len=whole["fits_max_model_len"], max_model_len_fit=whole["max_model_len_fit"])
    budget = gpu_budget(site, True, stage=tightest if site.gpu.get("devices_gib") else None)
    total = budget["requested"] / budget["gmu"]
    # the blocks of a request SUGGEST_MARGIN longer than max_model_len, plus one: the margin L15
    # asks for, so following this change does not leave a launch that "may refuse to start"
    margin_len = math.ceil(site.max_len * (1 + SUGGEST_MARGIN))
    one = (layout.blocks_per_request(margin_len, site.batched) + 1) * layout.page * layout.group_size
    needed = (budget["requested"] - budget["usable"]) + weights_per_gpu + one
    if needed <= total:
        cap["gmu_needed"] = math.ceil(needed / total * 100) / 100
    cap["max_model_len_safe"] = safe_len(cap["max_model_len_fit"], layout.block, SUGGEST_MARGIN)
    band = error_band(budget)
    exact = layout.blocks_per_request(site.max_len, site.batched) * layout.page * layout.group_size
    within = band <= available < exact < available + band and not cap["fits_max_model_len"] and not kv_bytes
    short = shortfall_band(site, budget)
    saving = _sampler_alt_saving(site)
    if short is not None and not kv_bytes and not cap["fits_max_model_len"] and available >= band \
            and exact - (available + saving) >= short:
        # short of one request by more than the estimate's error on logged start-ups of this engine
        # and model class, though maybe by fewer than 10% of the tokens: L15 P0 where the release is pinned
        cap["kv_shortfall_beyond_error"] = True
        cap["kv_shortfall_gib"] = round((exact - available) / GIB, 2)
        cap["kv_error_band_gib"] = round(short / GIB, 2)
        if within:
            # the logged band decides only for the release it was measured on; an assumed release keeps
            # the wider one, within which this shortfall lies (L15 P1 there). One flag says one thing:
            # never "within" and "beyond" together (eval115, GKE adk-vllm deploy-llm.yaml)
            cap["kv_shortfall_within_error_unpinned"] = True
    elif within:
        # one max_model_len request misses by less than the estimate's own error: L15 P1, not P0
        cap["kv_shortfall_within_error"] = True
    if exact <= available < exact + band and cap["fits_max_model_len"] and not kv_bytes:
        # one max_model_len request fits by less than the estimate's own error: L15 P1 (may refuse)
        cap["kv_surplus_within_error"] = True
    deficit = deficit_band(budget)
    if -deficit < available < 0 and exact <= available + deficit and not kv_bytes:
        # nothing left at the estimate, yet one max_model_len request within its own error: whether
        # vLLM finds the blocks is below what the estimate can tell (L16 P1, not P0)
        cap["kv_deficit_within_error"] = True
        cap["kv_deficit_band_gib"] = round(deficit / GIB, 2)
    elif abs(available) < band and cap["max_model_len_fit"] < (1 - SUGGEST_MARGIN) * site.max_len and not kv_bytes:
        # within the estimate's own error of zero, on either side: whether vLLM finds a few blocks
        # ("max seq len … larger than …", L15) or none ("No available memory …", L16) is below
        # what the estimate can tell
        cap["kv_cache_near_zero"] = True
    if available < (one if not kv_bytes else 0):
        seqs = _seqs_fit(site, weights_per_gpu, one)
        if seqs:
            cap["max_num_seqs_fit"] = seqs
    if saving and not kv_bytes:
        # where the installation picks the sampler (0.8.0-0.11.0: FlashInfer's when it is
        # importable), what the lighter one leaves: L16 says P1, not P0, when only it leaves a cache
        cap["kv_cache_alt_gib"] = round((available + saving) / GIB, 2)
        if -band < available + saving <= 0 and exact <= available + saving + band:
            # the lighter sampler's pool is short of zero by less than the estimate's own error, and
            # that error would hold one request: as for kv_deficit_within_error, L16 P1, not P0
            cap["kv_cache_alt_within_error"] = True
    if human_int(engine.get("kv_cache_memory_bytes")):
        notes.add("kv_cache_memory_bytes", human_int(engine["kv_cache_memory_bytes"]))
    kv_dtype = str(engine.get("kv_cache_dtype") or "auto")
    notes.add("kv_cache_dtype", kv_dtype)
    notes.add("kv_bytes_per_element", kv_element_bytes(engine, model))
    notes.add("block_size", layout.block)
    if layout.shards > 1:
        notes.add("kv_token_shards", layout.shards)
    notes.add("max_model_len", site.max_len)
    if model.get("num_sliding_layers"):
        notes.add("hybrid_kv_cache_manager", hybrid_manager_on(engine, rt))
    per_gpu_token = layout.bytes_per_token
    per_layer = per_gpu_token / max(1, layout.full + layout.sliding) if layout.full_bytes else layout.per_layer
    # MLA: every rank holds the same latent; cached per head (no MLA in the release), each rank its own heads
    replicas = 1 if model.get("kv_lora_rank") and mla_cache(model, engine, rt) == "latent" else site.tp
    out: dict[str, Any] = {
        # negative when the weights and activations overrun the budget, as vLLM logs it
        "kv_cache_gib": round(available / GIB, 2),
        "kv_cache_dtype": kv_dtype,
        "kv_bytes_per_token_per_gpu": int(per_gpu_token),
        "kv_bytes_per_token": int(per_layer * kv_layer_count(model) * replicas),
        "block_size": layout.block,
        "max_model_len": site.max_len,
        "max_model_len_known": site.max_len_known,
        "hybrid_kv_cache": layout.hybrid,
    }
    out.update(cap)
    if model.get("ssm"):
        out.update(ssm_facts(site, layout, cap, notes))
    return out


def ssm_facts(site: Site, layout: KVLayout, cap: dict, notes: Notes) -> dict[str, Any]:
    """What a hybrid state-space model adds: where its state lives, and (V1) the blocks that bound
    max_num_seqs, which 0.20.0+ refuses to exceed under full CUDA graphs."""
    out: dict[str, Any] = {"ssm_layers_per_gpu": layout.ssm or int(site.model["ssm"].get("layers") or 0)}
    notes.add("ssm_cache", "kv_blocks" if layout.ssm else "v0_max_num_seqs")
    if not layout.ssm:
        out["ssm_v0_state_gib"] = round(layout.v0_state / GIB, 2)
        return out
    out["ssm_pool_blocks"] = cap["kv_blocks"]
    out["ssm_blocks_per_request"] = layout.ssm_blocks
    out.update(_align_facts(site, layout))
    line = seqs_refusal(site.rt.version)
    # an unset max_num_seqs is the usage context's (128, 256 or 1024 by GPU, engine_defaults.py),
    # and a framework's own engine has no context read here: a guessed count judges nothing
    seqs = human_int(site.engine.get("max_num_seqs")) or 0
    # raised after the KV cache is sized, so only when that succeeds (L15 / L16 otherwise)
    if line and seqs and _full_graphs(site.engine, site.gpu) and 0 < cap["kv_blocks"] < seqs and cap["fits_max_model_len"]:
        out["ssm_seqs_refused"] = line
        fit = int(cap["kv_blocks"] * (1 - SUGGEST_MARGIN))
        if fit >= 1:
            out["ssm_max_num_seqs_fit"] = fit
        # the estimate's own error on the pool: a max_num_seqs within it may still start
        out["ssm_seqs_margin"] = seqs > cap["kv_blocks"] * (1 + SUGGEST_MARGIN) + 1
    return out


def _align_facts(site: Site, layout: KVLayout) -> dict[str, Any]:
    """Prefix caching's "align" mode schedules prefills in whole blocks, and 0.17.0–0.26.0 assert
    that the raised block fits max_num_batched_tokens. The block is a lower bound (vLLM aligns to
    16 tokens or more), so a block above the budget is refused."""
    line = align_refusal(site.rt.version)
    # vLLM turns its default "none" into "align" once prefix caching is on; only "all" differs
    if not line or layout.ssm_blocks < 2 or str(site.engine.get("mamba_cache_mode") or "none") == "all":
        return {}
    # an unset max_num_batched_tokens is the usage context's (2048 up to 16384); site.batched's
    # stand-in (8192) for a context not read here would refuse a block that LLM() takes
    if not human_int(site.engine.get("max_num_batched_tokens")) or layout.block <= site.batched:
        return {}
    return {"ssm_align_refused": line, "ssm_align_batched_fit": math.ceil(layout.block / 1024) * 1024}


def _full_graphs(engine: dict, gpu: dict) -> bool:
    """Whether the site keeps FULL CUDA graphs once vLLM has resolved the mode: not eager, no
    PIECEWISE/NONE mode of its own, and no PIECEWISE downgrade under speculative decoding — the Mamba
    block check follows that downgrade in the same function (config/compilation.py)."""
    if engine.get("enforce_eager"):
        return False
    return cudagraph_mode(engine, gpu, speculative(engine)[1]) in ("FULL_AND_PIECEWISE", "FULL", "FULL_DECODE_ONLY")


def _sampler_alt_saving(site: Site) -> float:
    """Bytes the release's other sampler (rt.sampler_alt) would leave free on the last stage."""
    if not site.rt.sampler_alt or not site.has_dims or site.pp > 1:  # PP: the tightest stage may not sample
        return 0.0
    alt = Site(site.model, site.gpu, site.engine, replace(site.rt, sampler=site.rt.sampler_alt), site.tp, site.pp)
    return max(0.0, gpu_budget(alt, True)["usable"] - gpu_budget(site, True)["usable"])


def _seqs_fit(site: Site, weights_per_gpu: float, one: float) -> int | None:
    """The largest max_num_seqs, a power of two below the site's, whose dummy sampler run (one
    row of logits per sequence: vllm/v1/worker/gpu_model_runner.py _dummy_sampler_run, the V0
    model runner's profile_run; vLLM's own hint on its OOM is "try lowering `max_num_seqs`")
    leaves room for one request 10% longer than max_model_len, and for the estimate's error on
    what vLLM profiles. None when the sampler warm-up is not what fills the budget."""
    now = profile_seqs(site.engine, site.rt)
    if not site.model.get("vocab_size") or now <= 1:
        return None
    seqs = 1 << ((now - 1).bit_length() - 1)  # the power of two below `now`
    while seqs >= 1:
        trial = Site(site.model, site.gpu, dict(site.engine, max_num_seqs=seqs), site.rt, site.tp, site.pp)
        b = gpu_budget(trial, True)
        error = SUGGEST_MARGIN * (b["activation_peak"] + b["non_torch"] + b["cudagraph"])
        if b["usable"] - weights_per_gpu >= one + error:
            return seqs
        seqs //= 2
    return None
