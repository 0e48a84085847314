"""What the estimate rests on besides the model: the vLLM behaviours that change the sizing,
decided per release (and by a site's environment), the terms vLLM does not say in advance
(calibrated on the start-up logs in docs/estimator.md), and vLLM's human-readable integers."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from vllm_kb.engine.check.memory.v1_fallback import v0_fallback
from vllm_kb.engine.kb.versions import parse, try_parse

GIB = 2**30

# --- what vLLM does not say in advance; calibrated on the startup logs in docs/estimator.md ----
DRIVER_RESERVED_GIB = 0.5      # NVML total minus what torch.cuda.mem_get_info reports as total
CUDA_CONTEXT_GIB = 0.5         # counted against the budget by vLLM < 0.6.4 only
NON_TORCH_GIB = {"v1": 0.15, "v0": 0.35}  # cuBLAS/NCCL/attention workspaces outside torch
# V0 below compute capability 8.0 runs XFormers (platforms/cuda.py: "Cannot use FlashAttention-2
# backend for Volta and Turing GPUs"), so no FlashAttention library is loaded or warmed: the Colab
# and Kaggle T4 logs of 0.6.6-0.8.5 print 0.01-0.11 GiB of non-torch memory, not 0.35.
NON_TORCH_V0_PRE_AMPERE_GIB = 0.05
NON_TORCH_PARALLEL_GIB = {"v1": 2.0, "v0": 0.1}  # extra with TP: NVSwitch (NVLS, symmetric-memory all-reduce) / PCIe buffers
# Before 0.6.4 the V0 worker reads its starting free memory before it joins the distributed world
# (worker.py init_device: init_gpu_memory, then init_worker_distributed_environment), so every NCCL
# communicator's buffers (torch's device group, pynccl's, the custom all-reduce) count against the
# cache. Between GPUs that reach each other (NVLink, or P2P over PCIe: not GeForce cards) they are
# about a GiB at TP 2 (the 0.5.1 L40 and 0.6.1 H100 rows); over shared memory they stay small (a
# 0.4.2 TP-2 GeForce log). 0.4.1-0.4.2 ran torch's NCCL 2.19+ with cuMem allocation on, which
# vLLM switched off from 0.4.3 (NCCL_CUMEM_ENABLE=0, worker_base.py; vLLM PR #5091): OpenRLHF
# #336 (0.4.2, Llama-3-70B at TP 2) found 2.8 GiB more than the rest of the estimate.
NON_TORCH_V0_NCCL_GIB = {"p2p": 1.0, "p2p_cumem": 2.8}
# NVLink SHARP (NVLS) on an NVSwitch baseboard that multicasts (HGX H100/H200), for a communicator over
# 3+ GPUs (NCCL 2.17+, src/transport/nvls.cc ncclNvlsInit/ncclNvlsSetup as of 2.20.5, torch 2.3-2.4's NCCL):
# one buffer of nChannels x 2 x (NCCL_BUFFSIZE 4 MiB + 2 MiB) per head, one head per local rank, with 32
# channels on Hopper's 18 NVLinks. Before 0.6.4 vLLM reads its free memory before the distributed init, so
# both communicators that a V0 TP group builds (pynccl's, at init, and torch's device group, on the
# profile run's first all-reduce above the custom all-reduce's 8 MiB) count against the cache: 3 GiB
# each at TP 8. vLLM #6746 (0.5.3, Llama 3.1 405B FP8 at TP 8 on H100) found 79,392 tokens where the
# estimate without them made 189,792.
NVLS_CHANNEL_BYTES = 2 * (4 + 2) * 2**20
NVLS_CHANNELS = 32
NVLS_V0_COMMUNICATORS = 2
# Unified memory (DGX Spark's GB10): cudaMemGetInfo reports the system's memory, and vLLM reads
# "free" as what the OS has available (vllm/utils/mem_utils.py MemorySnapshot, 0.12+ for Orin,
# Thor and Spark; is_integrated_gpu from 0.20), so whatever the host takes between the worker's
# first snapshot and the end of the profile run (the loader's buffers, the worker's RSS, page
# cache it cannot reclaim) counts as non-torch memory: public Spark boot logs print 5.7 and 7.3 GiB
# "for non-torch memory" where a discrete GPU prints 0.1-0.3. The total is MemTotal itself: no
# driver reserve to take off.
NON_TORCH_UNIFIED_GIB = 5.7
# Bytes per logit of the dummy sampler run (max_num_seqs rows x vocab): up to 0.16 the PyTorch
# top-k/top-p path sorts them (fp32 logits, sort values + int64 indices, probs, scatter, sort
# workspace); from 0.17 a Triton kernel masks them without sorting for 8 rows or more
# (vllm/v1/sample/ops/topk_topp_sampler.py apply_top_k_top_p), leaving the bf16 and fp32
# logits and the probabilities (llm-d's 0.19.0 logs: 14.4 bytes per logit). V0's sampler sorts the
# same way and then keeps fp32 probabilities and log-probabilities of every row as well
# (vllm/model_executor/layers/sampler.py: softmax and log_softmax after _apply_top_k_top_p): the T4
# logs of 0.6.6-0.8.5 whose profile run the sampler dominates print 39-40 bytes per logit.
# FlashInfer's sampler (V1 0.8.0-0.11.0 whenever a FlashInfer build is installed, as in vLLM's
# Docker images; later only with VLLM_USE_FLASHINFER_SAMPLER=1) masks top-k and samples from the
# probabilities without a sort: the fp32 logits and the probabilities, 8 bytes per logit (the
# dennislee22 A100 logs of 0.10.1.1 that print "Using FlashInfer for top-p & top-k sampling" leave
# 0.55 GiB beside weights and cache at 256 x 152K logits; the same run without FlashInfer, 1.6 GiB).
# V1 in 0.7.x (VLLM_USE_V1=1) runs no sampler in its profile run ("TODO(woosuk): Consider the memory
# usage of the sampler", v1/worker/gpu_model_runner.py profile_run): it computes the logits in the
# model dtype, of every one of max_num_batched_tokens rows in 0.7.0-0.7.2 ("logits_all") and of
# max_num_seqs rows in 0.7.3 ("logits"). vLLM PR #12569's 0.7.1 V1 log (Llama-3.1-70B W8A8, H100,
# 8,192 tokens: 1.96 GiB of logits) printed 22,096 tokens, 27,024 estimated as V0.
SAMPLER_BYTES_PER_LOGIT = {"sort": 32.0, "triton": 14.5, "v0": 40.0, "flashinfer": 8.0, "logits": 2.0,
                           "logits_all": 2.0}
PROFILE_WORKSPACE_GIB = {"v1": 0.25, "v0": 0.0}  # compile/attention workspaces in the V1 profile run
# fused_experts_impl runs its intermediate caches over at most this many tokens at once
# (VLLM_FUSED_MOE_CHUNK_SIZE, 32768 by default in 0.9.1-0.10.2: vllm/envs.py)
MOE_CHUNK_TOKENS = 32768
CUDAGRAPH_BASE_GIB = 0.3       # CUDA-graph pool, from vLLM 0.20 subtracted before KV sizing
# With FULL graphs the term is not scaled by the dense graphs' count: vLLM's estimate is its first capture
# plus (graphs - 1) x the second capture's growth, and the first FULL capture (at long profile sequences)
# is most of it (2 graphs log 0.36-0.47 GiB, 86 graphs 0.52-0.78; docs/estimator.md)
CUDAGRAPH_PER_LAYER_GIB = 0.006
# The MoE share at CUDAGRAPH_MOE_REF_GRAPHS graphs beyond each mode's first (51 + 35 at 256 sequences),
# linear in that count as vLLM's extrapolation is: none at 1 + 1 (Qwen3.6-35B-A3B, 0.36-0.47 GiB logged)
CUDAGRAPH_PER_MOE_LAYER_GIB = 0.02
CUDAGRAPH_MOE_REF_GRAPHS = 84
# PIECEWISE-only captures, per graph and layer (the MTP drafter's layers captured with the target's):
# Qwen3.6-27B + its MTP layer logs 0.13 / 0.17 / 0.36 GiB for 5 / 7 / 16 graphs (0.37 MiB each)
CUDAGRAPH_PIECEWISE_LAYER_GIB = 0.37 / 1024
# With LoRA, 0.11.1+ capture every graph twice, with and without adapters (cudagraph_specialize_lora,
# on by default; v1/cudagraph_dispatcher.py): vLLM PR #25914 logs 1.62 GiB of graphs before, 2.38 after
CUDAGRAPH_LORA_FACTOR = 2.38 / 1.62
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
    tokens_from_concurrency: bool  # 0.20.1+: "KV cache size" = concurrency x max_model_len (kv_cache_utils.py)
    sampler: str = "sort"       # how the dummy sampler masks top-k/top-p (0.17+: triton; V0: sort + logprobs)
    # the other sampler the release may run, where it depends on what is installed: 0.8.0-0.11.0
    # take FlashInfer's whenever FlashInfer is importable (the Docker images), PyTorch's sort otherwise
    sampler_alt: str | None = None
    mla_cache: str = "latent"   # DeepSeek MLA: latent (0.7.1+), full192 (0.7.0), full256 (0.5.1-0.6.6)
    experts_over_dp: bool = True  # 0.9.0+: FusedMoE shards the experts over TP x DP, EP or not
    nccl_cumem: bool = False    # 0.4.1-0.4.2: torch's NCCL 2.19+ allocates with cuMem (off from 0.4.3)
    # Llama 4's chunked local-attention layers keep only their chunk: V1 from 0.10.0 (before, every
    # token), but 0.10.1-0.13.x turn the hybrid manager off for them unless
    # VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE=1 (a latency regression), which defaults to 1
    # from 0.14.0 (vllm/config VllmConfig.__post_init__, envs.py)
    chunked_hybrid: bool = False
    # 0.3.1-0.6.3 size from the free memory read once the CUDA context exists (worker.py init_device:
    # init_gpu_memory; peak = init_gpu_memory - free), so at TP 1 the context is not counted; 0.2.5-0.3.0
    # took total - free, which counts it (the 0.2.5 A100 row)
    context_from_init: bool = False
    # MXFP4 experts on Hopper where the installation picks the kernel (0.10.2-0.11.0): Marlin, padded,
    # unless the optional triton_kernels package is importable; then Triton, unpadded ("strided")
    mxfp4_alt: str | None = None
    # VLLM_PP_LAYER_PARTITION (0.5.4+, vllm/distributed/utils.py get_pp_indices): the layers of each
    # pipeline stage as the site writes them, in place of the even split
    pp_partition: tuple[int, ...] | None = None
    # 0.14.0-0.16.x check one max_model_len request of the whole model's layers against the smallest
    # stage's available memory (kv_cache_utils.get_kv_cache_configs: min(available_memory)); 0.17.0
    # checks each stage against its own layers again (vLLM #34076 on that gap)
    pp_whole_model_check: bool = False
    # 0.9.1-0.10.2 with data parallelism: every FusedMoE layer gathers all DP ranks' tokens before its
    # experts (layer.py do_naive_dispatch_combine; VLLM_ALL2ALL_BACKEND "naive" by default, all2all.py
    # naive_multicast), so the profile run's MoE step runs over DP x max_num_batched_tokens tokens
    moe_dp_gather: bool = False
    # V1 measures non-torch memory from a baseline taken after start-up (utils memory_profiling) from
    # 0.9.1; before, as total - free, which counts the CUDA context (see reserve.non_torch_bytes)
    v1_baseline: bool = True


def runtime(vllm_version: str | None, env: dict | None = None, compute_capability: float | None = None,
            install: str | None = None, architecture: str | None = None, early_v1: bool = False) -> Runtime:
    """Which sizing rules apply. An unknown release gets the newest behaviour; the site's
    environment can still select V0 (VLLM_USE_V1=0, before 0.11) or turn the CUDA-graph
    estimate on or off (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS, 0.18+). Below compute
    capability 8.0, 0.8.0–0.10.1 fall back to V0 unless VLLM_USE_V1=1 insists
    (EngineArgs._is_v1_supported_oracle); so do 0.8.0–0.10.2 for an `architecture` whose class
    declares SupportsV0Only (Mllama and the other encoder-decoders: knowledge/vllm/v0_only.yaml),
    where VLLM_USE_V1=1 makes vLLM raise instead."""
    v = try_parse(vllm_version) if vllm_version else None

    def since(release: str) -> bool:
        return v is None or not v < parse(release)

    env = env or {}
    use_v1 = str(env.get("VLLM_USE_V1", "")).strip()
    v1 = since("0.8.0") and not (not since("0.11.0") and use_v1 == "0")
    # 0.7.x ran V1 only when asked (envs.py: VLLM_USE_V1 defaults to "0" there); only the memory estimate
    # models that early V1 (early_v1), the checks keep reading 0.7.x as V0
    v1 = v1 or (early_v1 and v is not None and since("0.7.0") and use_v1 == "1")
    if v1 and not since("0.10.2") and compute_capability is not None and compute_capability < 8.0 and use_v1 != "1":
        v1 = False
    if v1 and architecture and use_v1 != "1" and v is not None and v0_only(architecture, v):
        v1 = False
    graphs = since("0.20.0")
    if since("0.18.0") and env.get("VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS") in ("0", "1"):
        graphs = env["VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS"] == "1"
    # MLA's latent cache arrived with the V0 MLA backend in 0.7.1 (V1: 0.8.0); before, DeepSeek V2/V3
    # cached K and V per head, 192 wide in 0.7.0 and padded to 256 before (vllm/config.py get_head_size)
    if str(env.get("VLLM_MLA_DISABLE", "")).strip() in ("1", "true", "True"):
        mla = "full192"
    else:
        mla = "latent" if (since("0.7.1") and not (v1 and not since("0.8.0"))) else ("full192" if since("0.7.0") else "full256")
    sampler, alt = _sampler(v1, since, env, install)
    allow = str(env.get("VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE", "")).strip()
    chunked = since("0.10.0") and (not since("0.10.1") or (allow == "1" if allow in ("0", "1") else since("0.14.0")))
    return Runtime(vllm_version, v1=v1, new_profiler=since("0.6.4"), hybrid_manager=v1 and since("0.9.1"),
                   group_concurrency=v1 and since("0.9.1"), cudagraph_profiled=v1 and graphs,
                   tokens_from_concurrency=v1 and since("0.20.1"), sampler=sampler, sampler_alt=alt,
                   mla_cache=mla, experts_over_dp=since("0.9.0"), nccl_cumem=since("0.4.1") and not since("0.4.3"),
                   context_from_init=since("0.3.1") and not since("0.6.4"), chunked_hybrid=v1 and chunked,
                   mxfp4_alt=_mxfp4_alt(v, since, env, compute_capability),
                   pp_partition=_pp_partition(env) if since("0.5.4") else None,
                   pp_whole_model_check=v1 and since("0.14.0") and not since("0.17.0"),
                   v1_baseline=since("0.9.1"),
                   moe_dp_gather=v1 and v is not None and since("0.9.1") and not since("0.11.0")
                   and str(env.get("VLLM_ALL2ALL_BACKEND") or "naive").strip() in ("naive", "allgather_reducescatter"))


def v1_certain(vllm_version: str | None, env: dict | None, compute_capability: float | None,
               architecture: str | None, facts: dict | None = None) -> bool:
    """Whether the V1 engine that runtime() picks is a fact, not a default: from 0.11.0 there is no
    V0 (engine/llm_engine.py is V1's), and VLLM_USE_V1=1 makes 0.7-0.10 run V1 or raise. Otherwise
    0.8.0-0.10.2 fall back to V0 for a V0-only architecture, and 0.8.0-0.10.1 also below compute
    capability 8.0 (EngineArgs._is_v1_supported_oracle, 0.9.0 arg_utils.py:1248-1254): the GPU and the
    architecture must both be known, and no flag of the site's (`facts`: args, site.unread, site.pooling)
    may be one the oracle falls back for (v1_fallback.py)."""
    v = try_parse(vllm_version) if vllm_version else None
    if v is None:
        return False
    if not v < parse("0.11.0") or str((env or {}).get("VLLM_USE_V1", "")).strip() == "1":
        return True
    if v < parse("0.8.0") or not architecture:
        return False
    if compute_capability is None and v < parse("0.10.2"):
        return False
    site = (facts or {}).get("site") or {}
    inner = v < parse("0.10.2") and architecture in _mamba_archs(str(vllm_version))
    return not v0_fallback(v, (facts or {}).get("args") or {}, env or {}, set(site.get("unread") or ()),
                           site.get("pooling") is True, inner, compute_capability)


def _mamba_archs(version: str) -> list[str]:
    """Architectures with Mamba layers in this release (knowledge/vllm/mamba_spec.yaml)."""
    from vllm_kb.engine.kb import knowledge  # loaded lazily, as v0_only below

    row = (knowledge.load().doc("vllm", "mamba_spec.yaml").data.get("releases") or {}).get(version) or {}
    return list(row.get("architectures") or []) + list(row.get("v0_only") or [])


def _pp_partition(env: dict) -> tuple[int, ...] | None:
    """VLLM_PP_LAYER_PARTITION as vLLM parses it ("12,10,10"), or None when unset or not a list
    of counts (vLLM then refuses to start, which the estimate does not model)."""
    raw = env.get("VLLM_PP_LAYER_PARTITION")
    if not isinstance(raw, str) or not raw.strip():
        return None
    try:
        parts = tuple(int(x) for x in raw.split(","))
    except ValueError:
        return None
    return parts if all(p >= 0 for p in parts) else None


def v0_only(architecture: str, v: Any) -> bool:
    """Whether the release (a parsed Version) runs this architecture on V0 although V1 is its default."""
    from vllm_kb.engine.kb import knowledge  # the knowledge stage is loaded lazily, as engine/check/memory/ssm.py does

    spans = (knowledge.load().doc("vllm", "v0_only.yaml").data.get("architectures") or {}).get(architecture) or []
    return any(parse(a) <= v <= parse(b) for a, b in spans)


def _mxfp4_alt(v: Any, since: Any, env: dict, cc: float | None) -> str | None:
    """The lighter MXFP4 MoE kernel a Hopper GPU may run, where the installation decides
    (vllm/model_executor/layers/quantization/mxfp4.py get_mxfp4_backend): 0.10.2-0.11.0 take Triton
    when the optional triton_kernels package is importable (neither the wheel nor the CUDA image
    ships it; bundled from 0.12.0) and Marlin otherwise, and their torch 2.8.0 pin leaves the Triton
    weights unswizzled (utils/mxfp4_utils.py _swizzle_mxfp4: StridedLayout below torch 2.8.1), so only
    the expert width is rounded to 64 where Marlin pads the hidden size to 256 and the width to 128.
    0.10.1 pins torch 2.7.1, which keeps Marlin. From 0.11.1 (torch 2.9) the Triton weights are
    swizzled and padded too: within 2.5% of Marlin's (vLLM #33155, 0.14.1: 64.38 GiB of gpt-oss-120b
    where #23278's Marlin logged 65.97; llm-d's 0.19.0 rows of gpt-oss-20b match Marlin's padding),
    inside the estimate's error, so the estimate keeps one padding there."""
    if v is None or not since("0.10.2") or since("0.11.1") or cc is None or not 9.0 <= float(cc) < 10.0:
        return None
    if str(env.get("VLLM_USE_FLASHINFER_MOE_MXFP4_BF16", "")).strip() in ("1", "true", "True"):
        return None  # FlashInfer's SM90 kernel where FlashInfer is installed: neither of the two
    return "strided"


def _sampler(v1: bool, since: Any, env: dict, install: str | None = None) -> tuple[str, str | None]:
    """The dummy sampler's top-k/top-p path (vllm/v1/sample/ops/topk_topp_sampler.py
    TopKTopPSampler.__init__), and the other one where it depends on the installation.
    0.8.0-0.11.0 take FlashInfer's whenever it is importable unless VLLM_USE_FLASHINFER_SAMPLER=0
    (0.8.x only with FlashInfer below 0.2.3, as the images ship); 0.11.1+ only with
    VLLM_USE_FLASHINFER_SAMPLER=1; otherwise PyTorch's sort, a Triton kernel from 0.17.
    `install`: "image" (vLLM's own, which ships FlashInfer) or "pip" (a plain pin, which does not)
    decides it; None leaves both."""
    if not v1:
        return "v0", None
    if not since("0.8.0"):  # 0.7.x V1: no dummy sampler run, only the model-dtype logits (see above)
        return ("logits" if since("0.7.3") else "logits_all"), None
    flag = str(env.get("VLLM_USE_FLASHINFER_SAMPLER", "")).strip()
    native = "triton" if since("0.17.0") else "sort"
    if flag in ("1", "true", "True"):
        return "flashinfer", None
    if flag in ("0", "false", "False") or since("0.11.1"):
        return native, None
    if install == "image":
        return "flashinfer", None
    if install == "pip":
        return native, None
    return native, "flashinfer"  # pip wheels before 0.11.1 bring no FlashInfer; the images do


# utils/argparse_utils.py human_readable_int: a suffixed number, else int() (which takes 8_192)
_HUMAN = re.compile(r"(\d+(?:\.\d+)?)([kKmMgGtT]?)|(\d+(?:_\d+)+)")
_MULTIPLIER = {"k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40, "": 1}


def human_int(value: Any) -> int | None:
    """vLLM's human-readable integers (max_model_len, max_num_batched_tokens,
    kv_cache_memory_bytes, and bare tokens in JSON configs such as max_cudagraph_capture_size):
    32768, "8_192", "32K" (2**10), "25.6k" (10**3). None when not a number."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return int(value)
    m = _HUMAN.fullmatch(str(value).strip())
    if not m:
        return None
    return int(m.group(3).replace("_", "")) if m.group(3) else int(float(m.group(1)) * _MULTIPLIER[m.group(2)])


def expand_json_human(text: str) -> str:
    """A JSON config with its bare human-readable numbers written out, as vLLM 0.20+ reads it before
    parsing (arg_utils.py _expand_json_human_readable_numbers: {"max_cudagraph_capture_size": 8k});
    quoted strings are left alone."""
    parts = re.split(r'("(?:[^"\\]|\\.)*")', text)
    parts[::2] = [re.sub(r"\b\d+(?:\.\d+)?[kKmMgGtT]\b", lambda m: str(human_int(m.group())), p) for p in parts[::2]]
    return "".join(parts)


def profile_seqs(engine: dict, rt: Runtime) -> int:
    """max_num_seqs as the site sets it, else the least vLLM may give an unset one. The site's
    usage context (serve, LLM(), EngineArgs()) fills it before this (engine_defaults.py); what is
    left unset is a framework's own engine, whose context is not read: V0 and the V1 of 0.8.0-0.9.1
    take 256 or more in every context (arg_utils.py 0.9.1:1517/1567), the V1 of 0.9.2+ 128 outside
    LLM() and serve (SchedulerConfig, config.py 0.9.2:2240, scheduler.py 0.34.0 DEFAULT_MAX_NUM_SEQS).
    Fewer sequences profile fewer logits, images and graphs, so no verdict rests on more than vLLM
    may run (a guessed 256 was more than 0.9.2+ EngineArgs() run)."""
    if (seqs := human_int(engine.get("max_num_seqs"))) and seqs > 0:
        return seqs
    v = try_parse(rt.version) if rt.version else None
    return 128 if rt.v1 and (v is None or not v < parse("0.9.2")) else 256
