"""A memory estimate that follows vLLM's own KV-cache sizing (vllm/v1/worker/gpu_worker.py
determine_available_memory, vllm/v1/core/kv_cache_utils.py; the V0 worker before 0.8):

    requested  = GPU total (as torch sees it) x gpu_memory_utilization
    available  = requested - weights - peak activation of the profile run - non-torch memory
                 - CUDA-graph memory (subtracted from vLLM 0.20, when it is profiled first)
    blocks     = available // (page bytes x layers sharing a block), tokens = blocks x block_size

with full-attention, MLA and sliding-window layers counted as vLLM's (hybrid) KV-cache manager
counts them. Every number is an estimate; `assumptions` lists what it rests on as
machine-readable {key, value} pairs so that reports can word them in any language."""
from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from vllm_kb.engine.check.memory.bands import (KV_ERROR_FRACTION, KV_TIGHT_FRACTION, SUGGEST_MARGIN, error_band,
                                               shortfall_band, shortfall_share)
from vllm_kb.engine.check.memory.encoder import encoder_facts, tiled_bound, v0_profile, v1_encoder_step
from vllm_kb.engine.check.memory.kv import (KVLayout, checkpoint_kv_dtype, hybrid_manager_on, kv_capacity, kv_element_bytes,
                                            kv_layer_count, kv_layout, mla_absorbs, pp_stage_layers, safe_len)
from vllm_kb.engine.check.memory.graphs import cudagraph_bytes, cudagraph_mode
from vllm_kb.engine.check.memory.reserve import (activation_peak_bytes, batched_tokens, non_torch_bytes,
                                                 nvls_v0_unknown_bytes)
from vllm_kb.engine.check.memory.site import Notes, Site, numeric_args
from vllm_kb.engine.check.memory.ssm import align_refusal, seqs_refusal, speculative
from vllm_kb.engine.check.memory.runtime import (ACTIVATION_FRACTION, DEFAULT_GMU, DRIVER_RESERVED_GIB, GIB,
                                                 KV_RESERVE_FRACTION, PROFILE_WORKSPACE_GIB, TP_CHOICES, human_int, runtime)
from vllm_kb.engine.check.memory.weights import (BYTES_PER_PARAM, stage_weights_bytes, tower_on_every_stage,
                                                 uncertain_weights_bytes, weight_width, weights_bytes,
                                                 weights_per_gpu_bytes)
from vllm_kb.engine.kb.gpu_mix import rank_memory_gib
from vllm_kb.engine.kb.models import tp_divides


__all__ = ["BYTES_PER_PARAM", "DEFAULT_GMU", "DRIVER_RESERVED_GIB", "GIB", "KV_ERROR_FRACTION", "KV_TIGHT_FRACTION", "batched_tokens", "estimate", "human_int",
           "kv_layout", "numeric_args", "pp_stage_layers", "runtime", "shortfall_share", "weights_bytes",
           "weights_per_gpu_bytes"]


def estimate(model: dict, gpu: dict, engine: dict, vllm_version: str | None = None,
             env: dict | None = None, install: str | None = None, _settle: int = 4) -> dict[str, Any]:
    """Memory facts for one site. `model` = models.model_facts(...), `gpu` = hardware facts,
    `engine` = effective engine arguments; `vllm_version` picks the release's sizing rules
    (None: the newest), `env` the site's environment (VLLM_USE_V1). Empty when the model size
    is unknown."""
    if not model.get("params_b"):
        return {}
    engine = checkpoint_kv_dtype(numeric_args(engine), model, vllm_version)
    if weight_width(engine, model) is None:
        return {}  # a GGUF file: how many bits a weight takes is not known
    notes = Notes()
    weights = weights_bytes(model, engine, int(engine.get("tensor_parallel_size") or 1))
    out: dict[str, Any] = {"weights_gib": round(weights / GIB, 1)}
    width = notes.add("weight_width", weight_width(engine, model))
    if BYTES_PER_PARAM[width] < 2.0:  # only quantized layers shrink; the note says so
        notes.add("weight_bytes_per_param", BYTES_PER_PARAM[width])
    if not gpu.get("memory_gib"):
        out["assumptions"] = notes.items
        return out
    rt = runtime(vllm_version, env, gpu.get("compute_capability"), install, model.get("architecture"), early_v1=True)
    site = Site(model, gpu, engine, rt,
                 int(engine.get("tensor_parallel_size") or 1), int(engine.get("pipeline_parallel_size") or 1))
    budget = _budget(site, last_stage=True, notes=notes)
    stages = stage_weights_bytes(model, engine, weights, site.tp, site.pp, site.rt.experts_over_dp,
                                 absorbed_mla=mla_absorbs(model, engine, site.rt, env), partition=site.rt.pp_partition,
                                 tower_every_stage=tower_on_every_stage(model, engine, vllm_version))
    offload = _offload_bytes(engine)
    if offload:
        # --cpu-offload-gb keeps up to that many GiB of each GPU's weights in host memory (per GPU)
        notes.add("cpu_offload_gib", round(offload / GIB, 1))
        stages = [max(0.0, s - offload) for s in stages]
    per_gpu = max(stages)  # the fullest GPU decides the fit
    out["weights_per_gpu_gib"] = round(stages[0] / GIB, 1)  # what rank 0 logs
    out["usable_per_gpu_gib"] = round(budget["usable"] / GIB, 1)
    usable = [_budget(site, i == len(stages) - 1, stage=i)["usable"] for i in range(len(stages))] \
        if site.gpu.get("devices_gib") else [budget["usable"]] * len(stages)  # mixed cards: stage by stage
    out["fits"] = all(w <= u * (1 - KV_RESERVE_FRACTION) for w, u in zip(stages, usable))
    min_tp = _min_tp(site, weights)
    if min_tp is not None:
        out["min_tp"] = min_tp
    out.update({f"{k}_gib": round(budget[k] / GIB, 2) for k in ("activation_peak", "non_torch", "cudagraph")})
    out["requested_per_gpu_gib"] = round(budget["requested"] / GIB, 2)
    out["gpu_memory_utilization"] = budget["gmu"]
    if site.has_dims:
        out.update(_kv_facts(site, stages, notes))
        safe = out.get("max_model_len_safe")
        if safe and _settle and safe < site.max_len and batched_tokens(engine, safe, site.rt, model) != site.batched:
            # the profile run's batch follows max_model_len (V0 without chunked prefill): a shorter
            # context frees activations, so the suggestion is what still fits once it is set
            again = estimate(model, gpu, dict(engine, max_model_len=safe), vllm_version, env, install, _settle - 1)
            out["max_model_len_safe"] = min(safe, again.get("max_model_len_safe") or safe)
        _low_band(out, uncertain_weights_bytes(model, engine, width) / (site.tp * site.pp))
        _high_band(out, budget.get("encoder_step", 0.0))
        out.update(_mxfp4_alt(site, width, offload))
        one = site.max_len * out.get("kv_bytes_per_token_per_gpu", 0)
        # tokens from bytes only where every layer caches every token (no sliding or hybrid groups)
        per_token = 0 if out.get("hybrid_kv_cache") or model.get("num_sliding_layers") else out.get("kv_bytes_per_token_per_gpu", 0)
        out.update(encoder_facts(model, engine, site.max_len, site.batched, site.rt, budget["activation_peak"],
                                 out["kv_cache_gib"], budget["requested"] / budget["gmu"],
                                 budget["requested"] - out["kv_cache_gib"] * GIB + one, per_token, error_band(budget)))
    else:
        out.update(_kv_bound(budget, per_gpu))
        out.update(tiled_bound(model, engine, site.rt, budget["requested"] - budget["non_torch"] - per_gpu))
    out["assumptions"] = notes.items
    return out


def _mxfp4_alt(site: Site, width: str, offload: float) -> dict[str, Any]:
    """Where the installation picks the MXFP4 MoE kernel (rt.mxfp4_alt: Marlin, or Triton when
    triton_kernels is importable), what the lighter one leaves: its weights per GPU, KV memory and
    whether one max_model_len request fits. L15 and L16 say P1, not P0, when only it starts."""
    model, engine = site.model, site.engine
    if not site.rt.mxfp4_alt or width != "mxfp4" or not model.get("num_experts"):
        return {}
    alt = weights_bytes(model, engine, site.tp, site.rt.mxfp4_alt)
    stages = [max(0.0, s - offload) for s in stage_weights_bytes(model, engine, alt, site.tp, site.pp, site.rt.experts_over_dp,
                                                                    partition=site.rt.pp_partition)]
    cap = _kv_facts(site, stages, Notes())
    return {"weights_mxfp4_alt_per_gpu_gib": round(stages[0] / GIB, 1), "kv_cache_mxfp4_alt_gib": cap["kv_cache_gib"],
            "max_model_len_fit_mxfp4_alt": cap["max_model_len_fit"],
            "fits_max_model_len_mxfp4_alt": cap["fits_max_model_len"]}


def _low_band(out: dict, heavier: float) -> None:
    """The pessimistic end of the KV estimate when the weights may be heavier than counted (a
    quantization read from the name, whose checkpoint may keep attention in 16 bits): the tokens
    that fit with `heavier` bytes more per GPU. L15 says P0 only when even the estimate itself
    fails, P1 when only this end does."""
    kv = out.get("kv_cache_gib") or 0.0
    if heavier <= 0 or kv <= 0 or "max_model_len_fit" not in out:
        return
    out["weights_uncertain_gib"] = round(heavier / GIB, 1)
    out["max_model_len_fit_low"] = int(out["max_model_len_fit"] * max(0.0, kv - heavier / GIB) / kv)


def _high_band(out: dict, lighter: float) -> None:
    """The optimistic end where a profile term rests on few logs (the V1 encoder step of Qwen3.5's
    vision tower, est5: one family's logs): the tokens that fit without those bytes. L15 says P0 only
    when this end is short too (eval80: the default-backend control of vllm#55509 started where the
    term made it 23% short)."""
    kv = out.get("kv_cache_gib") or 0.0
    if lighter <= 0 or kv <= 0 or "max_model_len_fit" not in out:
        return
    out["encoder_step_gib"] = round(lighter / GIB, 2)
    out["max_model_len_fit_high"] = int(out["max_model_len_fit"] * (kv + lighter / GIB) / kv)


def _kv_bound(budget: dict, weights_per_gpu: float) -> dict[str, Any]:
    """Without the model's dimensions the activation peak is unknown, but weights larger than the
    budget less the non-torch memory leave no KV cache whatever the activations take."""
    left = budget["requested"] - budget["non_torch"] - weights_per_gpu
    if left >= 0:
        return {}
    total = budget["requested"] / budget["gmu"]
    need = weights_per_gpu + budget["non_torch"] + budget["activation_peak"]
    out: dict[str, Any] = {"kv_cache_gib": round(left / GIB, 2)}
    if need * (1 + SUGGEST_MARGIN) <= total:
        out["gmu_needed"] = math.ceil(need * (1 + SUGGEST_MARGIN) / total * 100) / 100
    return out


def _budget(site: Site, last_stage: bool, notes: Notes | None = None, stage: int | None = None) -> dict[str, float]:
    """Bytes per GPU: requested, the non-KV terms, and `usable` (left for weights and KV); on mixed
    cards, of pipeline stage `stage`'s smallest card (None: the smallest the engine takes)."""
    add = notes.add if notes else (lambda k, v: v)
    model, gpu, engine, rt = site.model, site.gpu, site.engine, site.rt
    # unified memory: cudaMemGetInfo's total is the OS's MemTotal, what the catalog holds
    reserved = 0.0 if gpu.get("unified_memory") else DRIVER_RESERVED_GIB
    total = (rank_memory_gib(gpu, site.tp, site.pp, stage) - add("driver_reserved_gib", reserved)) * GIB
    gmu = float(add("gpu_memory_utilization", float(engine.get("gpu_memory_utilization") or DEFAULT_GMU)))
    if site.has_dims:
        tokens, seqs = site.batched, int(engine.get("max_num_seqs") or 256)
        v0_mm = v0_profile(model, engine, site.max_len, tokens, rt)
        if v0_mm:  # V0 shrinks a multimodal dummy batch to the sequences that hold its items
            tokens, seqs = v0_mm["tokens"], v0_mm["seqs"]
        add("profile_batched_tokens", tokens)
        add("profile_max_num_seqs", seqs)
        activation = activation_peak_bytes(model, dict(engine, max_num_seqs=seqs), tokens, site.tp, rt, last_stage)
        enc = v1_encoder_step(model, engine, site.max_len, tokens, site.tp, rt) if site.pp == 1 else None
        text_only = activation
        if enc:  # the encoder step runs before the text dummy run, whose peak its cached output joins
            add("encoder_profile_items", enc["items"])
            activation = max(activation + enc["out"], enc["peak"] + PROFILE_WORKSPACE_GIB["v1"] * GIB)
        encoder_step = activation - text_only
        graphs = cudagraph_bytes(model, engine, site.pp, rt, gpu)
    else:  # no dimensions: a share of the GPU, as the first-order estimate did
        activation = ACTIVATION_FRACTION * float(gpu["memory_gib"]) * GIB
        graphs = encoder_step = 0.0
        add("no_architecture_dims", True)
    non_torch = non_torch_bytes(site.tp, site.pp, rt, gpu)
    add("activation_peak_gib", round(activation / GIB, 2))
    add("non_torch_gib", round(non_torch / GIB, 2))
    add("cudagraph_gib", round(graphs / GIB, 2))
    add("vllm_version", rt.version or "newest")
    if site.has_dims and rt.sampler_alt:
        add("sampler_alt", rt.sampler_alt)
    requested = total * gmu
    return {"requested": requested, "activation_peak": activation, "non_torch": non_torch, "gmu": gmu,
            "cudagraph": graphs, "usable": requested - activation - non_torch - graphs, "encoder_step": encoder_step,
            "unknown": nvls_v0_unknown_bytes(site.tp, site.pp, rt, gpu)}


def _kv_facts(site: Site, stages_w: list[float], notes: Notes) -> dict[str, Any]:
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
        available = _budget(site, last, stage=i)["usable"] - stages_w[i]
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
    budget = _budget(site, True, stage=tightest if site.gpu.get("devices_gib") else None)
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
    if band <= available < exact < available + band and not cap["fits_max_model_len"] and not kv_bytes:
        # one max_model_len request misses by less than the estimate's own error: L15 P1, not P0
        cap["kv_shortfall_within_error"] = True
    short = shortfall_band(site, budget)
    saving = _sampler_alt_saving(site)
    if short is not None and not kv_bytes and not cap["fits_max_model_len"] and available >= band \
            and exact - (available + saving) >= short:
        # short of one request by more than the estimate's error on logged start-ups of this engine
        # and model class, though maybe by fewer than 10% of the tokens: L15 P0 where the release is pinned
        cap["kv_shortfall_beyond_error"] = True
        cap["kv_shortfall_gib"] = round((exact - available) / GIB, 2)
        cap["kv_error_band_gib"] = round(short / GIB, 2)
    if exact <= available < exact + band and cap["fits_max_model_len"] and not kv_bytes:
        # one max_model_len request fits by less than the estimate's own error: L15 P1 (may refuse)
        cap["kv_surplus_within_error"] = True
    if -band < available < 0 and exact <= available + band and not kv_bytes:
        # nothing left at the estimate, yet one max_model_len request within its own error: whether
        # vLLM finds the blocks is below what the estimate can tell (L16 P1, not P0)
        cap["kv_deficit_within_error"] = True
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
    notes.add("max_model_len", site.max_len)
    if model.get("num_sliding_layers"):
        notes.add("hybrid_kv_cache_manager", hybrid_manager_on(engine, rt))
    per_gpu_token = layout.bytes_per_token
    per_layer = per_gpu_token / max(1, layout.full + layout.sliding) if layout.full_bytes else layout.per_layer
    replicas = 1 if model.get("kv_lora_rank") else site.tp  # MLA: every rank holds the same latent
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
    seqs = int(site.engine.get("max_num_seqs") or 256)
    # raised after the KV cache is sized, so only when that succeeds (L15 / L16 otherwise)
    if line and _full_graphs(site.engine, site.gpu) and 0 < cap["kv_blocks"] < seqs and cap["fits_max_model_len"]:
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
    if layout.block <= site.batched:
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
    return max(0.0, _budget(alt, True)["usable"] - _budget(site, True)["usable"])


def _seqs_fit(site: Site, weights_per_gpu: float, one: float) -> int | None:
    """The largest max_num_seqs, a power of two below the site's, whose dummy sampler run (one
    row of logits per sequence: vllm/v1/worker/gpu_model_runner.py _dummy_sampler_run, the V0
    model runner's profile_run; vLLM's own hint on its OOM is "try lowering `max_num_seqs`")
    leaves room for one request 10% longer than max_model_len, and for the estimate's error on
    what vLLM profiles. None when the sampler warm-up is not what fills the budget."""
    now = int(site.engine.get("max_num_seqs") or 256)
    if not site.model.get("vocab_size") or now <= 1:
        return None
    seqs = 1 << ((now - 1).bit_length() - 1)  # the power of two below `now`
    while seqs >= 1:
        trial = Site(site.model, site.gpu, dict(site.engine, max_num_seqs=seqs), site.rt, site.tp, site.pp)
        b = _budget(trial, True)
        error = SUGGEST_MARGIN * (b["activation_peak"] + b["non_torch"] + b["cudagraph"])
        if b["usable"] - weights_per_gpu >= one + error:
            return seqs
        seqs //= 2
    return None


def _offload_bytes(engine: dict) -> float:
    v = engine.get("cpu_offload_gb")
    return float(v) * GIB if isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0 else 0.0


def _min_tp(site: Site, weights: float) -> int | None:
    """Smallest power-of-two TP that splits the heads evenly and leaves room for KV cache."""
    for t in TP_CHOICES:
        if site.has_dims and not tp_divides(site.model, t):
            continue
        usable = _budget(site.with_tp(t), last_stage=True)["usable"]
        held = weights_per_gpu_bytes(site.model, site.engine, weights, t, site.pp, site.rt.experts_over_dp) - _offload_bytes(site.engine)
        if held <= usable * (1 - KV_RESERVE_FRACTION):
            return t
    return None
