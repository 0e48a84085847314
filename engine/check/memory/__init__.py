"""A memory estimate that follows vLLM's own KV-cache sizing (vllm/v1/worker/gpu_worker.py
determine_available_memory, vllm/v1/core/kv_cache_utils.py; the V0 worker before 0.8):

    requested  = GPU total (as torch sees it) x gpu_memory_utilization
    available  = requested - weights - peak activation of the profile run - non-torch memory
                 - CUDA-graph memory (subtracted from vLLM 0.20, when it is profiled first)
    blocks     = available // (page bytes x layers sharing a block), tokens = blocks x block_size

with full-attention, MLA and sliding-window layers counted as vLLM's (hybrid) KV-cache manager
counts them. Every number is an estimate; `assumptions` lists what it rests on as
machine-readable {key, value} pairs so that reports can word them in any language. The budget of one
GPU: budget.py; the KV cache it leaves: kv_facts.py."""
from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from vllm_kb.engine.check.memory.bands import (KV_ERROR_FRACTION, KV_TIGHT_FRACTION, SUGGEST_MARGIN, error_band,
                                               shortfall_share)
from vllm_kb.engine.check.memory.budget import gpu_budget
from vllm_kb.engine.check.memory.encoder import encoder_facts, tiled_bound
from vllm_kb.engine.check.memory.kv import checkpoint_kv_dtype, kv_layout, mla_absorbs, pp_stage_layers
from vllm_kb.engine.check.memory.kv_facts import kv_facts
from vllm_kb.engine.check.memory.reserve import batched_tokens
from vllm_kb.engine.check.memory.site import Notes, Site, numeric_args
from vllm_kb.engine.check.memory.runtime import (DEFAULT_GMU, DRIVER_RESERVED_GIB, GIB, KV_RESERVE_FRACTION, TP_CHOICES,
                                                 human_int, runtime)
from vllm_kb.engine.check.memory.weights import (BYTES_PER_PARAM, uncertain_weights_bytes, weight_width, weights_bytes,
                                                 weights_per_gpu_bytes)
from vllm_kb.engine.check.memory.weights_stages import stage_weights_bytes, tower_on_every_stage
from vllm_kb.engine.kb.models import tp_divides


__all__ = ["BYTES_PER_PARAM", "DEFAULT_GMU", "DRIVER_RESERVED_GIB", "GIB", "KV_ERROR_FRACTION", "KV_TIGHT_FRACTION", "batched_tokens", "estimate", "human_int", "tp_raise",
           "kv_layout", "numeric_args", "pp_stage_layers", "runtime", "shortfall_share", "weights_bytes",
           "weights_per_gpu_bytes"]


def estimate(model: dict, gpu: dict, engine: dict, vllm_version: str | None = None,
             env: dict | None = None, install: str | None = None, _settle: int = 4,
             range_sampler: str | None = None) -> dict[str, Any]:
    """Memory facts for one site. `model` = models.model_facts(...), `gpu` = hardware facts,
    `engine` = effective engine arguments; `vllm_version` picks the release's sizing rules
    (None: the newest), `env` the site's environment (VLLM_USE_V1). Empty when the model size
    is unknown. `range_sampler`: the lighter sampler an earlier release of the project's range
    warms up with where it is installed, when the release is assumed from that range
    (engine/check/sampler_range.py): what it leaves is reported beside the estimate (L16 P1)."""
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
    if BYTES_PER_PARAM[width] < 0.6:
        out["weights_four_bit"] = True  # "quantize the weights" is no lever for a 4-bit checkpoint (L16)
    if not gpu.get("memory_gib"):
        out["assumptions"] = notes.items
        return out
    rt = runtime(vllm_version, env, gpu.get("compute_capability"), install, model.get("architecture"), early_v1=True)
    site = Site(model, gpu, engine, rt,
                 int(engine.get("tensor_parallel_size") or 1), int(engine.get("pipeline_parallel_size") or 1))
    budget = gpu_budget(site, last_stage=True, notes=notes)
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
    usable = [gpu_budget(site, i == len(stages) - 1, stage=i)["usable"] for i in range(len(stages))] \
        if site.gpu.get("devices_gib") else [budget["usable"]] * len(stages)  # mixed cards: stage by stage
    out["fits"] = all(w <= u * (1 - KV_RESERVE_FRACTION) for w, u in zip(stages, usable))
    min_tp = _min_tp(site, weights)
    if min_tp is not None:
        out["min_tp"] = min_tp
    out.update({f"{k}_gib": round(budget[k] / GIB, 2) for k in ("activation_peak", "non_torch", "cudagraph")})
    out["requested_per_gpu_gib"] = round(budget["requested"] / GIB, 2)
    out["gpu_memory_utilization"] = budget["gmu"]
    if site.has_dims:
        # the range's lighter sampler is asked about only for the cache it would leave: the assumed
        # release's own sizing (and its notes) stand
        from_range = bool(range_sampler) and rt.v1 and not rt.sampler_alt and rt.sampler in ("sort", "triton")
        kv_site = Site(model, gpu, engine, replace(rt, sampler_alt=range_sampler), site.tp, site.pp) if from_range else site
        out.update(kv_facts(kv_site, stages, notes))
        if from_range and "kv_cache_alt_gib" in out:
            out["kv_cache_alt_release"] = True  # another release of the range, not this one, samples lighter
        safe = out.get("max_model_len_safe")
        if safe and _settle and safe < site.max_len and batched_tokens(engine, safe, site.rt, model) != site.batched:
            # the profile run's batch follows max_model_len (V0 without chunked prefill): a shorter
            # context frees activations, so the suggestion is what still fits once it is set
            again = estimate(model, gpu, dict(engine, max_model_len=safe), vllm_version, env, install, _settle - 1,
                             range_sampler)
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


def tp_raise(est: dict, model: dict, gpu: dict, engine: dict, visible, **kw) -> int | None:
    """Where one max_model_len request does not fit (L15) and the process sees GPUs the engine leaves idle
    (tp × pp × local DP below `visible`): the smallest larger tensor-parallel size that splits the heads
    evenly, fits those GPUs and holds the request at the estimate (eval84 api-for-open-llm: two cards
    visible, TP 1; the reporter's fix was TP 2). `kw` goes to estimate()."""
    if est.get("fits_max_model_len", True) or not isinstance(visible, int) or not model.get("num_attention_heads"):
        return None
    def size(key: str) -> int | None:
        v = engine.get(key)
        return int(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 1 else None
    tp, pp = size("tensor_parallel_size") or 1, size("pipeline_parallel_size") or 1
    dp = size("data_parallel_size_local") or size("data_parallel_size") or 1
    for t in range(tp + 1, visible // (pp * dp) + 1):
        if tp_divides(model, t) and estimate(model, gpu, dict(engine, tensor_parallel_size=t), **kw).get("fits_max_model_len"):
            return t
    return None


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
    cap = kv_facts(site, stages, Notes())
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


def _offload_bytes(engine: dict) -> float:
    v = engine.get("cpu_offload_gb")
    return float(v) * GIB if isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0 else 0.0


def _min_tp(site: Site, weights: float) -> int | None:
    """Smallest power-of-two TP that splits the heads evenly and leaves room for KV cache."""
    for t in TP_CHOICES:
        if site.has_dims and not tp_divides(site.model, t):
            continue
        usable = gpu_budget(site.with_tp(t), last_stage=True)["usable"]
        held = weights_per_gpu_bytes(site.model, site.engine, weights, t, site.pp, site.rt.experts_over_dp) - _offload_bytes(site.engine)
        if held <= usable * (1 - KV_RESERVE_FRACTION):
            return t
    return None
