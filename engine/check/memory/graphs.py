"""CUDA-graph memory that vLLM 0.20+ subtracts before sizing the KV cache
(`v1/worker/gpu_model_runner.py` `profile_cudagraph_memory`): which graphs of which mode the release
captures, and what its estimate of them comes to. vLLM captures the two largest sizes of each mode
into a throwaway pool and charges the largest first capture plus, per mode, (graphs - 1) x the
second capture's growth, each read as the change in cudaMemGetInfo's free memory."""
from __future__ import annotations

import json
import re

from vllm_kb.engine.check.memory.runtime import (CUDAGRAPH_BASE_GIB, CUDAGRAPH_LORA_FACTOR, CUDAGRAPH_MOE_REF_GRAPHS,
                                                 CUDAGRAPH_PER_LAYER_GIB, CUDAGRAPH_PER_MOE_LAYER_GIB,
                                                 CUDAGRAPH_PIECEWISE_LAYER_GIB, GIB, Runtime, expand_json_human,
                                                 human_int, profile_seqs)
from vllm_kb.engine.check.memory.ssm import speculative
from vllm_kb.engine.kb.model_arith import head_dim, moe_layers
from vllm_kb.engine.kb.models import ceil_div
from vllm_kb.engine.kb.versions import Version, try_parse

# speculative methods whose drafter runs through the EAGLE proposer, whose graphs `_dummy_run`
# captures beside the target's (drafter.dummy_run(..., is_graph_capturing=...))
_DRAFT_LAYERS_METHODS = ("mtp",)


def cudagraph_bytes(model: dict, engine: dict, pp: int, rt: Runtime, gpu: dict | None = None) -> float:
    """The term the estimate subtracts, in bytes per GPU: `modelled_gib`, plus the FlashInfer
    workspace its first FULL capture allocates where the site names that backend."""
    return modelled_gib(model, engine, pp, rt, gpu) * GIB + flashinfer_workspace_bytes(model, engine, rt, gpu)


def flashinfer_workspace_bytes(model: dict, engine: dict, rt: Runtime, gpu: dict | None = None) -> float:
    """FlashInfer's metadata builder allocates its workspace on its first build()
    (v1/attention/backends/flashinfer.py _get_workspace_buffer: VLLM_FLASHINFER_WORKSPACE_BUFFER_SIZE,
    394 MiB, and from 0.26 at least max_num_batched_tokens x query heads per rank x head_dim x 16
    bytes). profile_cudagraph_memory (0.20-0.33) builds fresh builders for its minimal KV cache, and
    _dummy_run builds attention metadata only for FULL graphs, so the first FULL capture's
    cudaMemGetInfo sample holds the workspace and the KV budget loses it; FlashAttention allocates
    none. vLLM #55509 (0.28.0, hybrid 27B INT4, TP 2 on RTX 5060 Ti): FLASHINFER forced refuses
    max_model_len 100352, the default backend starts. Counted only where the site names FlashInfer:
    the graph terms were fitted on logs that do not say which backend ran."""
    env = engine.get("env") or {}
    named = str(engine.get("attention_backend") or env.get("VLLM_ATTENTION_BACKEND") or "").strip().upper()
    if named != "FLASHINFER" or not rt.cudagraph_profiled or engine.get("enforce_eager"):
        return 0.0
    gpu = gpu or {}
    k = speculative(engine)[1]
    if graph_counts(engine, gpu, rt, k, cudagraph_mode(engine, gpu, k))[1] == 0:
        return 0.0  # no FULL graph: no attention metadata is built while profiling
    size = human_int(env.get("VLLM_FLASHINFER_WORKSPACE_BUFFER_SIZE")) or 394 * 1024 * 1024
    v = try_parse(rt.version) if rt.version else None
    if v is None or not v < Version("0.26.0"):
        tp = max(1, human_int(engine.get("tensor_parallel_size")) or 1)
        heads = max(1, int(model.get("num_attention_heads") or 1) // tp)
        mnbt = human_int(engine.get("max_num_batched_tokens")) or 8192
        size = max(size, mnbt * heads * head_dim(model) * 16)
    return float(size)


def modelled_gib(model: dict, engine: dict, pp: int, rt: Runtime, gpu: dict | None = None) -> float:
    """vLLM's own estimate of the graphs per GPU in GiB, by mode and count. PIECEWISE-only captures (the spec-decode downgrade, or cudagraph_mode
    PIECEWISE) are charged per graph and layer, the MTP drafter's layers with the target's
    (`_dummy_run` captures the drafter's graphs in the same sample): vLLM logs 0.13 / 0.17 / 0.36 GiB
    for Qwen3.6-27B with its MTP layer at 5 / 7 / 16 graphs (club-3090 #104, PR 44; gpustack/runner PR
    251). With FULL graphs the first FULL capture (run at long profile sequences) is most of it, sized
    per model; the MoE share follows the graphs beyond each mode's first, as vLLM's linear
    extrapolation of the second capture does (none at 1 + 1: Qwen3.6-35B-A3B logs 0.36-0.47 GiB)."""
    if not rt.cudagraph_profiled or engine.get("enforce_eager"):
        return 0.0
    gpu = gpu or {}
    method, k = speculative(engine)
    mode = cudagraph_mode(engine, gpu, k)
    if mode == "NONE":
        return 0.0
    layers = ceil_div(model["num_hidden_layers"], pp)
    moe = ceil_div(moe_layers(model), pp)
    pw, full = graph_counts(engine, gpu, rt, k, mode)
    extra = max(0, pw - 1) + max(0, full - 1)
    if mode == "PIECEWISE":
        if k and any(m in method for m in _DRAFT_LAYERS_METHODS):
            layers += int(model.get("num_nextn_predict_layers") or model.get("mtp_num_hidden_layers") or 1)
        gib = pw * CUDAGRAPH_PIECEWISE_LAYER_GIB * layers
    else:
        gib = CUDAGRAPH_BASE_GIB + CUDAGRAPH_PER_LAYER_GIB * layers
    gib += CUDAGRAPH_PER_MOE_LAYER_GIB * moe * extra / CUDAGRAPH_MOE_REF_GRAPHS
    return gib * (CUDAGRAPH_LORA_FACTOR if _lora_graphs_twice(engine) else 1.0)


# the mode in a compilation config that is not JSON: a Python literal (`{'cudagraph_mode': 'PIECEWISE'}`)
# or a call as written (`CompilationConfig(cudagraph_mode=CUDAGraphMode.PIECEWISE)`)
_MODE_TEXT = re.compile(r"cudagraph_mode\W+(?:CUDAGraphMode\.)?([A-Za-z_]+)", re.I)


def _compilation(engine: dict) -> dict:
    comp = engine.get("compilation_config")
    if isinstance(comp, str):
        try:
            comp = json.loads(expand_json_human(comp))
        except ValueError:  # read the mode from the text, as L110's refusal read it before the graph term
            m = _MODE_TEXT.search(comp)
            return {"cudagraph_mode": m.group(1)} if m else {}
    return comp if isinstance(comp, dict) else {}


def cudagraph_mode(engine: dict, gpu: dict, k: int) -> str:
    """The mode the release runs: the site's compilation_config.cudagraph_mode, else
    FULL_AND_PIECEWISE, which `config/compilation.py` turns into PIECEWISE under speculative
    decoding when an attention backend supports FULL graphs only for single-token decodes
    ("is not supported with spec-decode for attention backend", 0.20-0.34). FlashInfer is such a
    backend (UNIFORM_SINGLE_TOKEN_DECODE) off data-centre Blackwell, where TRTLLM decode is not
    available; it runs where FlashAttention cannot take the KV dtype (an fp8 KV cache needs FA3,
    Hopper: flash_attn.py supports_kv_cache_dtype) or where the site names it."""
    said = str(_compilation(engine).get("cudagraph_mode") or "").strip().upper().removeprefix("CUDAGRAPHMODE.")
    if said in ("NONE", "PIECEWISE", "FULL", "FULL_DECODE_ONLY", "FULL_AND_PIECEWISE"):
        mode = said
    else:
        mode = "FULL_AND_PIECEWISE"
    if mode == "FULL_AND_PIECEWISE" and k and _flashinfer_decode_only(engine, gpu):
        return "PIECEWISE"
    return mode


def _flashinfer_decode_only(engine: dict, gpu: dict) -> bool:
    cc = gpu.get("compute_capability")
    if not isinstance(cc, (int, float)) or 10.0 <= cc < 11.0:
        return False
    backend = str(engine.get("attention_backend") or (engine.get("env") or {}).get("VLLM_ATTENTION_BACKEND") or "")
    if backend:
        return backend.strip().upper() == "FLASHINFER"
    kv = str(engine.get("kv_cache_dtype") or "auto").strip().lower()
    return kv.startswith("fp8") and not 9.0 <= cc < 10.0


def capture_sizes(engine: dict, gpu: dict, rt: Runtime, k: int) -> list[int]:
    """`config/vllm.py` `_set_cudagraph_sizes`: 1, 2, 4, steps of 8 below 256 and of 16 from 256, up to
    min(2 x max_num_seqs x (1 + k), 512 — 1024 on data-centre Blackwell from 0.28 —,
    max_num_batched_tokens), plus max_num_batched_tokens where it fits, and from 0.29 the uniform
    decode sizes n x (1 + k) under speculative decoding; the site's cudagraph_capture_sizes or
    max_cudagraph_capture_size where it gives them."""
    comp = _compilation(engine)
    mnbt = human_int(engine.get("max_num_batched_tokens")) or 8192
    given = comp.get("cudagraph_capture_sizes")
    if isinstance(given, list) and given and all(isinstance(s, int) for s in given):
        return sorted({s for s in given if s <= mnbt})
    v = try_parse(rt.version) if rt.version else None
    seqs = profile_seqs(engine, rt)
    cc = gpu.get("compute_capability")
    dc_blackwell = isinstance(cc, (int, float)) and 10.0 <= cc < 11.0 and (v is None or not v < Version("0.28.0"))
    ceiling = 1024 if dc_blackwell else 512
    top = human_int(comp.get("max_cudagraph_capture_size")) or min(seqs * (1 + k) * 2, ceiling)
    top = min(top, mnbt)
    sizes = {s for s in (1, 2, 4) if s <= top} | set(range(8, min(top + 1, 256), 8)) | set(range(256, top + 1, 16))
    if mnbt <= top:
        sizes.add(mnbt)
    if k and (v is None or not v < Version("0.29.0")) and not comp.get("max_cudagraph_capture_size"):
        q = 1 + k
        reqs = min(seqs, ceiling)
        counts = {n for n in (1, 2, 4) if n <= reqs} | set(range(8, min(reqs + 1, 256), 8))
        counts |= set(range(256, reqs + 1, 16)) | {reqs}
        sizes |= {n * q for n in counts if n * q <= top and n * q <= mnbt}
    return sorted(sizes)


def graph_counts(engine: dict, gpu: dict, rt: Runtime, k: int, mode: str) -> tuple[int, int]:
    """(PIECEWISE graphs, FULL graphs) as `v1/cudagraph_dispatcher.py` `initialize_cudagraph_keys`
    makes them: the mixed mode over every capture size, and under FULL_AND_PIECEWISE /
    FULL_DECODE_ONLY the FULL decode graphs over the sizes from 1 + k up to max_num_seqs x (1 + k)."""
    if mode == "NONE":
        return 0, 0
    sizes = capture_sizes(engine, gpu, rt, k)
    seqs = profile_seqs(engine, rt)
    decode = [s for s in sizes if 1 + k <= s <= seqs * (1 + k)]
    if mode == "PIECEWISE":
        return len(sizes), 0
    if mode == "FULL":
        return 0, len(sizes)
    if mode == "FULL_DECODE_ONLY":
        return 0, len(decode)
    return len(sizes), len(decode)


def _lora_graphs_twice(engine: dict) -> bool:
    """LoRA on and compilation_config.cudagraph_specialize_lora left on (every release that profiles
    the graphs has it)."""
    if str(engine.get("enable_lora", "")).strip().lower() not in ("true", "1"):
        return False
    comp = engine.get("compilation_config")
    text = str(comp).replace(" ", "").replace('"', "'").lower() if comp is not None else ""
    return "'cudagraph_specialize_lora':false" not in text and "cudagraph_specialize_lora=false" not in text
