"""The bytes of one GPU a site's engine asks for and what they go to before the KV cache (the
profile run's activation peak, non-torch memory, CUDA graphs; vllm/v1/worker/gpu_worker.py
determine_available_memory): `usable` is what is left for weights and the KV cache."""
from __future__ import annotations

from vllm_kb.engine.check.memory.encoder import v0_profile, v1_encoder_step
from vllm_kb.engine.check.memory.graphs import cudagraph_bytes
from vllm_kb.engine.check.memory.reserve import activation_peak_bytes, non_torch_bytes, nvls_v0_unknown_bytes
from vllm_kb.engine.check.memory.runtime import ACTIVATION_FRACTION, DEFAULT_GMU, DRIVER_RESERVED_GIB, GIB, PROFILE_WORKSPACE_GIB, profile_seqs
from vllm_kb.engine.check.memory.site import Notes, Site
from vllm_kb.engine.kb.gpu_mix import rank_memory_gib


def gpu_budget(site: Site, last_stage: bool, notes: Notes | None = None, stage: int | None = None) -> dict[str, float]:
    """Bytes per GPU: requested, the non-KV terms, and `usable` (left for weights and KV); on mixed
    cards, of pipeline stage `stage`'s smallest card (None: the smallest the engine takes)."""
    add = notes.add if notes else (lambda k, v: v)
    model, gpu, engine, rt = site.model, site.gpu, site.engine, site.rt
    # unified memory: cudaMemGetInfo's total is the OS's MemTotal, what the catalog holds
    # elsewhere NVML's total less what torch does not see: the catalog's measure for the card, or the default
    reserved = 0.0 if gpu.get("unified_memory") else float(gpu.get("driver_reserved_gib") or DRIVER_RESERVED_GIB)
    total = (rank_memory_gib(gpu, site.tp, site.pp, stage) - add("driver_reserved_gib", reserved)) * GIB
    gmu = float(add("gpu_memory_utilization", float(engine.get("gpu_memory_utilization") or DEFAULT_GMU)))
    if site.has_dims:
        tokens, seqs = site.batched, profile_seqs(engine, rt)
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
