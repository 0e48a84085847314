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

import re
from dataclasses import dataclass
from typing import Any

from vllm_kb.engine.kb.models import (ceil_div, embedding_params, expert_params, head_dim, kv_heads_per_gpu, tp_divides)
from vllm_kb.engine.kb.versions import Version, try_parse

GIB = 2**30

BYTES_PER_PARAM = {
    "fp32": 4.0, "float32": 4.0, "bf16": 2.0, "fp16": 2.0, "auto": 2.0,
    "fp8": 1.0, "int8": 1.0,
    # 4-bit integer with a 16-bit scale (and zero) per group of 128: ~4.2 bits
    "4bit": 0.53,
    # MXFP4: 4 bits + an 8-bit scale per 32 values; NVFP4: + an FP8 scale per 16 values
    "mxfp4": 0.53, "fp4": 0.5625,
}
# quantization method → weight width class
QUANT_WIDTH = {
    "fp8": "fp8", "fp8_per_tensor": "fp8", "fp8_per_block": "fp8", "fp8_per_channel": "fp8", "mxfp8": "fp8",
    "fbgemm_fp8": "fp8", "modelopt": "fp8", "modelopt_mxfp8": "fp8", "deepseek_v4_fp8": "fp8",
    "experts_int8": "int8", "int8": "int8", "int8_per_channel_weight_only": "int8", "compressed-tensors": "int8",
    "awq": "4bit", "awq_marlin": "4bit", "auto_awq": "4bit", "gptq": "4bit", "gptq_marlin": "4bit", "auto_gptq": "4bit",
    "bitsandbytes": "4bit", "gguf": "4bit", "int4": "4bit", "moe_wna16": "4bit", "marlin": "4bit", "auto_round": "4bit",
    "mxfp4": "mxfp4", "gpt_oss_mxfp4": "mxfp4", "nvfp4": "fp4", "modelopt_fp4": "fp4", "nvfp4_per_token": "fp4",
}
# methods that quantize the routed experts only (gpt-oss ships attention and embeddings in BF16)
EXPERTS_ONLY = {"mxfp4", "gpt_oss_mxfp4", "experts_int8", "moe_wna16"}

KV_BYTES = {"auto": None, "fp8": 1.0, "fp8_e4m3": 1.0, "fp8_e5m2": 1.0, "fp8_inc": 1.0, "int8": 1.0,
            "int8_per_token_head": 1.0, "nvfp4": 0.5625, "bfloat16": 2.0, "float16": 2.0, "half": 2.0, "float": 4.0}
FP8_DS_MLA_BYTES = 656  # DeepSeek V3.2 sparse MLA: fp8 latent + scales + bf16 rope, per token and layer

# --- what vLLM does not say in advance; calibrated on the startup logs in docs/estimator.md ----
DRIVER_RESERVED_GIB = 0.5      # NVML total minus what torch.cuda.mem_get_info reports as total
CUDA_CONTEXT_GIB = 0.5         # counted against the budget by vLLM < 0.6.4 only
NON_TORCH_GIB = {"v1": 0.15, "v0": 0.35}  # cuBLAS/NCCL/attention workspaces outside torch
NON_TORCH_PARALLEL_GIB = {"v1": 1.0, "v0": 0.1}  # extra with TP: NVSwitch (NVLS) / PCIe buffers
SAMPLER_BYTES_PER_LOGIT = 32   # dummy sampler run, PyTorch top-k/top-p: fp32 logits, sort values +
                               # int64 indices, probs, scatter, sort workspace
PROFILE_WORKSPACE_GIB = {"v1": 0.25, "v0": 0.0}  # compile/attention workspaces in the V1 profile run
CUDAGRAPH_BASE_GIB = 0.3       # CUDA-graph pool, from vLLM 0.20 subtracted before KV sizing
CUDAGRAPH_PER_LAYER_GIB = 0.006
CUDAGRAPH_PER_MOE_LAYER_GIB = 0.02
DEFAULT_GMU = 0.9
DEFAULT_BLOCK = 16

RUNTIME_OVERHEAD_GIB = 1.5  # kept for the report's wording; the estimate uses the terms above
ACTIVATION_FRACTION = 0.03  # used only when the model's dimensions are unknown
KV_RESERVE_FRACTION = 0.15  # what must stay free for KV cache to be worth serving
TP_CHOICES = (1, 2, 4, 8, 16, 32, 64)


@dataclass(frozen=True)
class Runtime:
    """The vLLM behaviours that change the sizing, decided from the release."""
    version: str | None
    v1: bool
    new_profiler: bool          # 0.6.4+: budget = total x util (context not counted)
    hybrid_manager: bool        # 0.9.1+ V1: sliding-window layers keep only window + batch
    group_concurrency: bool     # 0.9.1+: concurrency counts blocks per KV-cache group
    cudagraph_profiled: bool    # 0.20+: CUDA-graph memory subtracted before KV sizing
    tokens_from_concurrency: bool  # 0.24+: "KV cache size" = concurrency x max_model_len


def runtime(vllm_version: str | None, env: dict | None = None) -> Runtime:
    """Which sizing rules apply. An unknown release gets the newest behaviour; the site's
    environment can still select V0 (VLLM_USE_V1=0, before 0.11) or turn the CUDA-graph
    estimate on or off (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS, 0.18+)."""
    v = try_parse(vllm_version) if vllm_version else None

    def since(release: str) -> bool:
        return v is None or not v < Version(release)

    env = env or {}
    v1 = since("0.8.0") and not (not since("0.11.0") and str(env.get("VLLM_USE_V1", "1")) == "0")
    graphs = since("0.20.0")
    if since("0.18.0") and env.get("VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS") in ("0", "1"):
        graphs = env["VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS"] == "1"
    return Runtime(vllm_version, v1=v1, new_profiler=since("0.6.4"), hybrid_manager=v1 and since("0.9.1"),
                   group_concurrency=v1 and since("0.9.1"), cudagraph_profiled=v1 and graphs,
                   tokens_from_concurrency=v1 and since("0.24.0"))


class _Notes:
    """The assumptions of one estimate, in the order they were made."""

    def __init__(self) -> None:
        self.items: list[dict[str, Any]] = []

    def add(self, key: str, value: Any) -> Any:
        self.items.append({"key": key, "value": value})
        return value


# --- weights -------------------------------------------------------------------------------

def weight_width(engine: dict, model: dict) -> str:
    q = engine.get("quantization") or model.get("quant_method")
    if q:
        return QUANT_WIDTH.get(str(q), "4bit" if "4" in str(q) else "fp8" if "8" in str(q) else "bf16")
    dtype = str(engine.get("dtype") or "auto").lower()
    return "fp32" if dtype in ("float32", "fp32", "float") else "bf16"


def weights_bytes(model: dict, engine: dict) -> float:
    """Checkpoint bytes: quantized layers at their width, embeddings/LM head (and what a
    method leaves alone) at 16 bits."""
    total = model["params_b"] * 1e9
    width = weight_width(engine, model)
    per = BYTES_PER_PARAM[width]
    if per >= 2.0 or not model.get("hidden_size"):
        return total * per
    embed = embedding_params(model) if model.get("vocab_size") else 0
    q = str(engine.get("quantization") or model.get("quant_method") or "")
    if q in EXPERTS_ONLY and model.get("num_experts"):
        experts = min(expert_params(model), total - embed)
        return experts * per * _mxfp4_padding(model) + (total - experts) * 2.0
    return embed * 2.0 + (total - embed) * per


def _mxfp4_padding(model: dict) -> float:
    """vLLM's MXFP4 MoE kernels (Marlin, FlashInfer) pad the expert matrices: hidden size to a
    multiple of 256, expert width to 128 (vllm/model_executor/layers/quantization/mxfp4.py)."""
    h, inter = model.get("hidden_size") or 0, model.get("moe_intermediate_size") or 0
    if not h or not inter:
        return 1.0
    return (ceil_div(h, 256) * 256 * ceil_div(inter, 128) * 128) / (h * inter)


def weights_per_gpu_bytes(model: dict, engine: dict, weights: float, tp: int, pp: int) -> float:
    """Sharded over TP x PP, plus the KV projections each rank holds whole when TP exceeds the
    KV heads (vLLM replicates them)."""
    per = weights / (tp * pp)
    kv = model.get("num_key_value_heads")
    if kv and tp > kv and not model.get("kv_lora_rank") and model.get("hidden_size"):
        width = BYTES_PER_PARAM[weight_width(engine, model)]
        kv_proj = 2 * model["hidden_size"] * head_dim(model) * model["num_hidden_layers"] / pp
        per += kv_proj * (kv_heads_per_gpu(model, tp) - kv / tp) * width
    return per


# --- memory outside weights and KV -----------------------------------------------------------

def batched_tokens(engine: dict, max_len: int, rt: Runtime) -> int:
    """Tokens of the profile run: max_num_batched_tokens, or V0's own default."""
    mnbt = human_int(engine.get("max_num_batched_tokens"))
    if mnbt:
        return mnbt
    if rt.v1:
        return 8192
    # V0: chunked prefill (512-token chunks) only for contexts above 32K
    return 512 if max_len > 32768 else max(max_len, 2048)


def activation_peak_bytes(model: dict, engine: dict, tokens: int, tp: int, rt: Runtime,
                          last_stage: bool = True) -> float:
    """Peak torch memory of the profile run: the widest MLP/MoE step over `tokens`, or the dummy
    sampler over max_num_seqs rows of logits (only the last pipeline stage samples), whichever
    is larger."""
    h = model["hidden_size"]
    act = 2.0  # activations run in the model dtype (bf16/fp16) whatever the weights are
    width = max(_mlp_width(model, engine, tp), _attention_width(model, tp))
    forward = tokens * act * (2.5 * h + width)
    rows = min(int(engine.get("max_num_seqs") or 256), tokens)
    sampler = rows * (model.get("vocab_size") or 0) * SAMPLER_BYTES_PER_LOGIT if last_stage else 0.0
    return max(forward, sampler) + PROFILE_WORKSPACE_GIB["v1" if rt.v1 else "v0"] * GIB


def _mlp_width(model: dict, engine: dict, tp: int) -> float:
    """Elements per token alive in the widest MLP step (gate/up output, activation, MoE caches)."""
    dense = 3 * (model.get("intermediate_size") or 0) / tp
    if not model.get("num_experts"):
        return dense
    ep = bool(engine.get("enable_expert_parallel"))
    inter = (model.get("moe_intermediate_size") or 0) / (1 if ep else tp)
    k = model.get("num_experts_per_tok") or 1
    shared = 3 * (model.get("n_shared_experts") or 0) * (model.get("moe_intermediate_size") or 0) / tp
    moe = k * (3 * inter + model["hidden_size"]) + shared
    return max(moe, dense if model.get("first_k_dense_replace") else 0)


def _attention_width(model: dict, tp: int) -> float:
    heads = (model.get("num_attention_heads") or 1) / tp
    if model.get("kv_lora_rank"):  # MLA prefill expands the latent to per-head K and V
        return heads * ((model.get("qk_nope_head_dim") or 128) * 2 + (model.get("qk_rope_head_dim") or 64) * 2
                        + (model.get("v_head_dim") or 128) * 2)
    hd = head_dim(model)
    return (2 * heads + 2 * kv_heads_per_gpu(model, tp)) * hd


def non_torch_bytes(tp: int, pp: int, rt: Runtime, gpu: dict) -> float:
    """Memory the profile run adds outside torch. With TP over NVSwitch (Hopper, Blackwell)
    NCCL's NVLS and the all-reduce workspaces take about a GiB more; over PCIe they stay small."""
    engine = "v1" if rt.v1 else "v0"
    gib = NON_TORCH_GIB[engine]
    if tp > 1:
        nvls = gpu.get("nvlink") and gpu.get("arch") in ("hopper", "blackwell") and rt.v1
        gib += NON_TORCH_PARALLEL_GIB["v1" if nvls else "v0"]
    if not rt.new_profiler:
        gib += CUDA_CONTEXT_GIB
    return gib * GIB


def cudagraph_bytes(model: dict, engine: dict, pp: int, rt: Runtime) -> float:
    if not rt.cudagraph_profiled or engine.get("enforce_eager"):
        return 0.0
    layers = ceil_div(model["num_hidden_layers"], pp)
    moe = ceil_div(model["num_hidden_layers"] - (model.get("first_k_dense_replace") or 0), pp) if model.get("num_experts") else 0
    return (CUDAGRAPH_BASE_GIB + CUDAGRAPH_PER_LAYER_GIB * layers + CUDAGRAPH_PER_MOE_LAYER_GIB * moe) * GIB


# --- KV cache ---------------------------------------------------------------------------------

def kv_element_bytes(engine: dict, model: dict) -> float:
    kv = str(engine.get("kv_cache_dtype") or "auto").lower()
    per = KV_BYTES.get(kv)
    if per is not None:
        return per
    if kv.startswith("fp8"):
        return 1.0
    dtype = str(engine.get("dtype") or "auto").lower()
    return 4.0 if dtype in ("float32", "fp32", "float") else 2.0


def kv_bytes_per_token_layer(model: dict, engine: dict, tp: int) -> float:
    """One token, one layer, one GPU. Full attention stores K and V for this rank's KV heads;
    MLA stores one latent (kv_lora_rank + qk_rope_head_dim) that every TP rank keeps whole."""
    if model.get("kv_lora_rank"):
        if str(engine.get("kv_cache_dtype") or "") == "fp8_ds_mla":
            return FP8_DS_MLA_BYTES
        return (model["kv_lora_rank"] + (model.get("qk_rope_head_dim") or 0)) * kv_element_bytes(engine, model)
    return 2 * kv_heads_per_gpu(model, tp) * head_dim(model) * kv_element_bytes(engine, model)


@dataclass(frozen=True)
class KVLayout:
    per_layer: float   # bytes per token per layer on one GPU
    full: int          # full-attention layers on one GPU (its pipeline stage)
    sliding: int       # sliding-window layers kept to their window
    window: int
    block: int

    @property
    def hybrid(self) -> bool:
        return self.full > 0 and self.sliding > 0

    @property
    def group_size(self) -> int:
        """Layers that share one block tensor: all of them, or for a hybrid model the smaller
        of the two kinds (vLLM groups layers n:1, padding the last group)."""
        return min(self.full, self.sliding) if self.hybrid else self.full + self.sliding

    @property
    def groups(self) -> tuple[int, int]:
        """(full-attention groups, sliding-window groups)."""
        if not self.hybrid:
            return (1, 0) if self.full else (0, 1)
        gs = self.group_size
        return ceil_div(self.full, gs), ceil_div(self.sliding, gs)

    def blocks(self, available: float) -> int:
        page = self.per_layer * self.block
        if page * self.group_size <= 0:  # a config.json with zero heads or widths
            return 0
        return max(0, int(available // (page * self.group_size)))

    def blocks_per_request(self, max_len: int, batched: int) -> int:
        full_groups, sliding_groups = self.groups
        full = ceil_div(max_len, self.block)
        local = ceil_div(min(self.window - 1 + batched, max_len), self.block) + 1
        return full_groups * full + sliding_groups * local


def pp_stage_layers(layers: int, pp: int) -> list[int]:
    """Layers per pipeline stage as vLLM splits them (get_pp_indices): an even share, the
    remainder going to the stages before the last."""
    parts = [layers // pp] * pp
    for i in range(2, layers % pp + 2):
        parts[-i] += 1
    return parts


def kv_layout(model: dict, engine: dict, tp: int, layers: int, rt: Runtime) -> KVLayout:
    """The KV-cache shape of one GPU holding `layers` of the model."""
    sliding = 0
    window = int(model.get("sliding_window_size") or 0)
    if window and model.get("num_sliding_layers"):
        sliding = round(int(model["num_sliding_layers"]) * layers / model["num_hidden_layers"])
        if sliding < layers and not hybrid_manager_on(engine, rt):
            sliding = 0  # without the hybrid manager a local layer keeps every token
    block = int(engine.get("block_size") or DEFAULT_BLOCK)
    return KVLayout(kv_bytes_per_token_layer(model, engine, tp), layers - sliding, sliding, window, block)


def hybrid_manager_on(engine: dict, rt: Runtime) -> bool:
    """vLLM turns the hybrid KV-cache manager off on request, for KV connectors and KV events."""
    return rt.hybrid_manager and not any(engine.get(k) for k in (
        "disable_hybrid_kv_cache_manager", "kv_transfer_config", "kv_events_config", "disable_sliding_window"))


def kv_capacity(layout: KVLayout, available: float, max_len: int, batched: int, rt: Runtime) -> dict[str, Any]:
    """The numbers vLLM logs: blocks, "GPU KV cache size: N tokens" and
    "Maximum concurrency for L tokens per request: Xx"."""
    blocks = layout.blocks(available)
    per_request = layout.blocks_per_request(max_len, batched)
    full_groups, sliding_groups = layout.groups
    if rt.group_concurrency:
        concurrency = blocks / per_request if per_request else 0.0
    else:  # V0 and early V1: tokens over max_model_len
        concurrency = blocks * layout.block / max_len
    if rt.tokens_from_concurrency:
        tokens = int(concurrency * max_len)
    else:  # blocks spread evenly over the groups, counted in the smallest block size
        tokens = blocks // (full_groups + sliding_groups) * layout.block
    return {"kv_blocks": blocks, "kv_tokens": tokens, "max_concurrency": round(concurrency, 2),
            "kv_groups": full_groups + sliding_groups, "fits_max_model_len": concurrency >= 1.0,
            "max_model_len_fit": _longest_fit(layout, blocks, batched, max_len)}


def _longest_fit(layout: KVLayout, blocks: int, batched: int, max_len: int) -> int:
    """Longest request the cache holds (vLLM's "estimated maximum model length")."""
    lo, hi = 0, max(max_len, blocks * layout.block)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if layout.blocks_per_request(mid, batched) <= blocks:
            lo = mid
        else:
            hi = mid - 1
    return lo


# --- the estimate -----------------------------------------------------------------------------

_HUMAN = re.compile(r"(\d+(?:\.\d+)?)([kKmMgG]?)")
_MULTIPLIER = {"k": 10**3, "m": 10**6, "g": 10**9, "K": 2**10, "M": 2**20, "G": 2**30, "": 1}


def human_int(value: Any) -> int | None:
    """vLLM's human-readable integers (max_model_len, max_num_batched_tokens,
    kv_cache_memory_bytes): 32768, "32K" (2**10), "25.6k" (10**3). None when not a number."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return int(value)
    m = _HUMAN.fullmatch(str(value).strip())
    return int(float(m.group(1)) * _MULTIPLIER[m.group(2)]) if m else None


@dataclass(frozen=True)
class _Site:
    """What one estimate is about: model, GPU, engine arguments, release behaviour."""
    model: dict
    gpu: dict
    engine: dict
    rt: Runtime
    tp: int
    pp: int

    @property
    def has_dims(self) -> bool:
        return bool(self.model.get("num_hidden_layers") and self.model.get("hidden_size"))

    @property
    def max_len(self) -> int:
        m, e = self.model, self.engine
        given = human_int(e.get("max_model_len"))
        if given and given > 0:  # -1 / "auto": vLLM fits the context to memory; size the model's
            return given
        return int(m.get("max_context") or m.get("max_position_embeddings") or 4096)

    @property
    def batched(self) -> int:
        return batched_tokens(self.engine, self.max_len, self.rt)

    def with_tp(self, tp: int) -> "_Site":
        return _Site(self.model, self.gpu, self.engine, self.rt, tp, self.pp)


# Arguments the sizing does arithmetic with; a site can write anything there ("$TP", "\x01128").
_NUMERIC_ARGS = {"tensor_parallel_size": int, "pipeline_parallel_size": int, "data_parallel_size": int,
                 "max_num_seqs": int, "block_size": int, "gpu_memory_utilization": float}


def numeric_args(engine: dict) -> dict:
    """The engine arguments with every numeric one a finite number, or dropped (its default is used)."""
    out = dict(engine)
    for key, typ in _NUMERIC_ARGS.items():
        v = out.get(key)
        if v is None or (isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)):
            continue
        try:
            f = float(v)
            out[key] = typ(f) if math.isfinite(f) else None
        except (TypeError, ValueError, OverflowError):
            out[key] = None
        if out[key] is None:
            del out[key]
    return out


def estimate(model: dict, gpu: dict, engine: dict, vllm_version: str | None = None,
             env: dict | None = None) -> dict[str, Any]:
    """Memory facts for one site. `model` = models.model_facts(...), `gpu` = hardware facts,
    `engine` = effective engine arguments; `vllm_version` picks the release's sizing rules
    (None: the newest), `env` the site's environment (VLLM_USE_V1). Empty when the model size
    is unknown."""
    if not model.get("params_b"):
        return {}
    engine = numeric_args(engine)
    notes = _Notes()
    weights = weights_bytes(model, engine)
    out: dict[str, Any] = {"weights_gib": round(weights / GIB, 1)}
    width = notes.add("weight_width", weight_width(engine, model))
    if BYTES_PER_PARAM[width] < 2.0:  # only quantized layers shrink; the note says so
        notes.add("weight_bytes_per_param", BYTES_PER_PARAM[width])
    if not gpu.get("memory_gib"):
        out["assumptions"] = notes.items
        return out
    site = _Site(model, gpu, engine, runtime(vllm_version, env),
                 int(engine.get("tensor_parallel_size") or 1), int(engine.get("pipeline_parallel_size") or 1))
    budget = _budget(site, last_stage=True, notes=notes)
    per_gpu = weights_per_gpu_bytes(model, engine, weights, site.tp, site.pp)
    out["weights_per_gpu_gib"] = round(per_gpu / GIB, 1)
    out["usable_per_gpu_gib"] = round(budget["usable"] / GIB, 1)
    out["fits"] = per_gpu <= budget["usable"] * (1 - KV_RESERVE_FRACTION)
    min_tp = _min_tp(site, weights)
    if min_tp is not None:
        out["min_tp"] = min_tp
    out.update({f"{k}_gib": round(budget[k] / GIB, 2) for k in ("activation_peak", "non_torch", "cudagraph")})
    out["requested_per_gpu_gib"] = round(budget["requested"] / GIB, 2)
    if site.has_dims:
        out.update(_kv_facts(site, per_gpu, notes))
    out["assumptions"] = notes.items
    return out


def _budget(site: _Site, last_stage: bool, notes: _Notes | None = None) -> dict[str, float]:
    """Bytes per GPU: requested, the non-KV terms, and `usable` (left for weights and KV)."""
    add = notes.add if notes else (lambda k, v: v)
    model, gpu, engine, rt = site.model, site.gpu, site.engine, site.rt
    total = (float(gpu["memory_gib"]) - add("driver_reserved_gib", DRIVER_RESERVED_GIB)) * GIB
    gmu = float(add("gpu_memory_utilization", float(engine.get("gpu_memory_utilization") or DEFAULT_GMU)))
    if site.has_dims:
        tokens = add("profile_batched_tokens", site.batched)
        add("profile_max_num_seqs", int(engine.get("max_num_seqs") or 256))
        activation = activation_peak_bytes(model, engine, tokens, site.tp, rt, last_stage)
        graphs = cudagraph_bytes(model, engine, site.pp, rt)
    else:  # no dimensions: a share of the GPU, as the first-order estimate did
        activation = ACTIVATION_FRACTION * float(gpu["memory_gib"]) * GIB
        graphs = 0.0
        add("no_architecture_dims", True)
    non_torch = non_torch_bytes(site.tp, site.pp, rt, gpu)
    add("activation_peak_gib", round(activation / GIB, 2))
    add("non_torch_gib", round(non_torch / GIB, 2))
    add("cudagraph_gib", round(graphs / GIB, 2))
    add("vllm_version", rt.version or "newest")
    requested = total * gmu
    return {"requested": requested, "activation_peak": activation, "non_torch": non_torch,
            "cudagraph": graphs, "usable": requested - activation - non_torch - graphs}


def _kv_facts(site: _Site, weights_per_gpu: float, notes: _Notes) -> dict[str, Any]:
    """KV cache of the tightest GPU. With PP the last stage samples (more activation) and the
    earlier ones may hold one layer more; vLLM sizes every stage's cache alike, to the smallest."""
    model, engine, rt = site.model, site.engine, site.rt
    stages = pp_stage_layers(model["num_hidden_layers"], site.pp)
    kinds = {(stages[-1], True)} | ({(max(stages[:-1]), False)} if site.pp > 1 else set())
    best: tuple[dict, KVLayout, float] | None = None
    for layers, last in sorted(kinds):
        available = _budget(site, last)["usable"] - weights_per_gpu
        if human_int(engine.get("kv_cache_memory_bytes")):
            available = float(human_int(engine["kv_cache_memory_bytes"]))
        layout = kv_layout(model, engine, site.tp, layers, rt)
        cap = kv_capacity(layout, max(available, 0.0), site.max_len, site.batched, rt)
        if best is None or cap["kv_blocks"] < best[0]["kv_blocks"]:
            best = (cap, layout, available)
    cap, layout, available = best
    if human_int(engine.get("kv_cache_memory_bytes")):
        notes.add("kv_cache_memory_bytes", human_int(engine["kv_cache_memory_bytes"]))
    kv_dtype = str(engine.get("kv_cache_dtype") or "auto")
    notes.add("kv_cache_dtype", kv_dtype)
    notes.add("kv_bytes_per_element", kv_element_bytes(engine, model))
    notes.add("block_size", layout.block)
    notes.add("max_model_len", site.max_len)
    if model.get("num_sliding_layers"):
        notes.add("hybrid_kv_cache_manager", hybrid_manager_on(engine, rt))
    per_gpu_token = layout.per_layer * (layout.full + layout.sliding)
    replicas = 1 if model.get("kv_lora_rank") else site.tp  # MLA: every rank holds the same latent
    out: dict[str, Any] = {
        # negative when the weights and activations overrun the budget, as vLLM logs it
        "kv_cache_gib": round(available / GIB, 2),
        "kv_cache_dtype": kv_dtype,
        "kv_bytes_per_token_per_gpu": int(per_gpu_token),
        "kv_bytes_per_token": int(layout.per_layer * model["num_hidden_layers"] * replicas),
        "block_size": layout.block,
        "max_model_len": site.max_len,
        "hybrid_kv_cache": layout.hybrid,
    }
    out.update(cap)
    return out


def _min_tp(site: _Site, weights: float) -> int | None:
    """Smallest power-of-two TP that splits the heads evenly and leaves room for KV cache."""
    for t in TP_CHOICES:
        if site.has_dims and not tp_divides(site.model, t):
            continue
        usable = _budget(site.with_tp(t), last_stage=True)["usable"]
        if weights_per_gpu_bytes(site.model, site.engine, weights, t, site.pp) <= usable * (1 - KV_RESERVE_FRACTION):
            return t
    return None
