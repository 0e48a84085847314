"""Memory outside weights and KV cache that vLLM subtracts before sizing the cache: the peak
activation of the profile run (forward pass or dummy sampler) and non-torch workspaces; the
CUDA-graph memory of the releases that profile it first is graphs.py's."""
from __future__ import annotations

from vllm_kb.engine.check.memory.runtime import (CUDA_CONTEXT_GIB, GIB, NON_TORCH_GIB, NON_TORCH_PARALLEL_GIB,
                                                 NON_TORCH_UNIFIED_GIB, NON_TORCH_V0_NCCL_GIB,
                                                 NON_TORCH_V0_PRE_AMPERE_GIB, NVLS_CHANNEL_BYTES, NVLS_CHANNELS,
                                                 NVLS_V0_COMMUNICATORS, MOE_CHUNK_TOKENS,
                                                 PROFILE_WORKSPACE_GIB, SAMPLER_BYTES_PER_LOGIT, Runtime, human_int,
                                                 profile_seqs)
from vllm_kb.engine.kb.model_arith import has_dense_mlp, moe_layers
from vllm_kb.engine.kb.models import ceil_div, head_dim, kv_heads_per_gpu
from vllm_kb.engine.kb.versions import Version, try_parse


def batched_tokens(engine: dict, max_len: int, rt: Runtime, model: dict | None = None) -> int:
    """Tokens of the profile run: max_num_batched_tokens, or V0's own default: one prefill of
    max(max_model_len, 2048) tokens without chunked prefill, a chunk with it (512 tokens up to
    0.6.4, 2048 from 0.6.5: SchedulerConfig), and at least 4096 (0.6.0-0.6.2) / 5120 (0.6.3+)
    tokens for a multimodal model (_MULTIMODAL_MODEL_MAX_NUM_BATCHED_TOKENS)."""
    mnbt = human_int(engine.get("max_num_batched_tokens"))
    if mnbt:
        return mnbt
    if rt.v1:
        return 8192
    v = try_parse(rt.version) if rt.version else None
    if v0_chunked_prefill(engine, max_len, model or {}, v):
        return 512 if v is not None and v < Version("0.6.5") else 2048
    out = max(max_len, 2048)
    if (model or {}).get("multimodal") and (v is None or not v < Version("0.6.0")):
        out = max(out, 4096 if v is not None and v < Version("0.6.3") else 5120)
    return out


def v0_chunked_prefill(engine: dict, max_len: int, model: dict, v: Version | None) -> bool:
    """Whether V0 runs chunked prefill (EngineArgs.create_engine_config): as the site says, else
    by default from 0.5.3 for contexts above 32K — but not with LoRA, not for multimodal models
    (0.6.1.post2+: "chunked prefill is disabled by default in V0" for them) nor MLA ones (0.8.0+),
    which then profile one prefill of the whole context."""
    said = engine.get("enable_chunked_prefill")
    if said is not None and str(said).strip().lower() in ("true", "1", "false", "0"):
        return str(said).strip().lower() in ("true", "1")
    if max_len <= 32768 or (v is not None and v < Version("0.5.3")):
        return False
    if str(engine.get("enable_lora", "")).strip().lower() in ("true", "1"):
        return False
    if model.get("multimodal") and (v is None or not v < Version("0.6.1.post2")):
        return False
    # use_mla: a model type the release does not list runs plain attention (engine/kb/mla.py)
    if (model.get("mla") or model.get("kv_lora_rank")) and model.get("mla_release") is not False \
            and (v is None or not v < Version("0.8.0")):
        return False
    return True


def activation_peak_bytes(model: dict, engine: dict, tokens: int, tp: int, rt: Runtime,
                          last_stage: bool = True) -> float:
    """Peak torch memory of the profile run: the widest MLP/MoE step over `tokens`, or the dummy
    sampler over max_num_seqs rows of logits (only the last pipeline stage samples), whichever
    is larger."""
    h = model["hidden_size"]
    act = 2.0  # activations run in the model dtype (bf16/fp16) whatever the weights are
    width = max(_mlp_width(model, engine, tp), _attention_width(model, tp))
    forward = max(tokens * act * (2.5 * h + width), _dp_gathered_moe_bytes(model, engine, tokens, tp, rt))
    rows = tokens if rt.sampler == "logits_all" else min(profile_seqs(engine, rt), tokens)
    sampler = rows * (model.get("vocab_size") or 0) * SAMPLER_BYTES_PER_LOGIT[rt.sampler] if last_stage else 0.0
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
    return max(moe, dense if has_dense_mlp(model) else 0)


def _dp_gathered_moe_bytes(model: dict, engine: dict, tokens: int, tp: int, rt: Runtime) -> float:
    """The MoE step of a DP rank where the layer gathers every rank's tokens first (0.9.1-0.10.2,
    rt.moe_dp_gather): the gathered input and the combined output over DP x tokens, the fused-MoE
    caches over at most one chunk of them (fused_moe.py fused_experts_impl: M = min(tokens,
    VLLM_FUSED_MOE_CHUNK_SIZE)), in the model dtype. vLLM recipes PR 12 (Qwen3-Coder-480B-FP8, DP 8 +
    EP on H20s, 0.10.1): 48.66 GiB of cache logged, 54.24 estimated without it."""
    dp = engine.get("data_parallel_size")
    if (not rt.moe_dp_gather or not model.get("num_experts") or not isinstance(dp, int) or isinstance(dp, bool)
            or dp <= 1):
        return 0.0
    h = model["hidden_size"]
    gathered = dp * tokens
    ep = bool(engine.get("enable_expert_parallel"))
    inter = (model.get("moe_intermediate_size") or 0) / (1 if ep else tp * dp)  # without EP: TP x DP shards
    routed = (model.get("num_experts_per_tok") or 1) * (3 * inter + h)
    return 2.0 * (tokens * 2.5 * h + gathered * 2 * h + min(gathered, MOE_CHUNK_TOKENS) * routed)


def _attention_width(model: dict, tp: int) -> float:
    heads = (model.get("num_attention_heads") or 1) / tp
    if model.get("kv_lora_rank"):  # MLA prefill expands the latent to per-head K and V
        return heads * ((model.get("qk_nope_head_dim") or 128) * 2 + (model.get("qk_rope_head_dim") or 64) * 2
                        + (model.get("v_head_dim") or 128) * 2)
    hd = head_dim(model)
    return (2 * heads + 2 * kv_heads_per_gpu(model, tp)) * hd


def non_torch_bytes(tp: int, pp: int, rt: Runtime, gpu: dict) -> float:
    """Memory the profile run adds outside torch. With TP over NVSwitch (Hopper, Blackwell)
    NCCL's NVLS and the all-reduce workspaces take about a GiB more; over PCIe they stay small.
    V0 on Volta/Turing loads no FlashAttention library and adds almost nothing."""
    engine = "v1" if rt.v1 else "v0"
    gib = NON_TORCH_GIB[engine]
    cc = gpu.get("compute_capability")
    if not rt.v1 and isinstance(cc, (int, float)) and cc < 8.0:
        gib = NON_TORCH_V0_PRE_AMPERE_GIB  # XFormers, no FlashAttention module (see runtime.py)
    if tp > 1:
        nvls = gpu.get("nvlink") and gpu.get("arch") in ("hopper", "blackwell") and rt.v1
        if not rt.v1 and not rt.new_profiler and _peer_to_peer(gpu):
            gib += NON_TORCH_V0_NCCL_GIB["p2p_cumem" if rt.nccl_cumem else "p2p"]
            gib += nvls_v0_bytes(tp, gpu) / GIB
        else:
            gib += NON_TORCH_PARALLEL_GIB["v1" if nvls else "v0"]
    if rt.v1 and not rt.v1_baseline:
        # V1 before 0.9.1 adds (total - free) - torch's allocations after the profile run
        # (gpu_worker.py determine_available_memory: non_torch_allocations), the CUDA context included
        gib += CUDA_CONTEXT_GIB
    elif not rt.new_profiler and (tp > 1 or not rt.context_from_init):
        # with TP > 1 the rows of 0.4.2-0.6.1 were fitted with it beside the NCCL buffers (measured
        # from before the distributed init); at TP 1 0.3.1-0.6.3 leave the context out (SubgraphRAG
        # #19: 0.5.5 on a 3090 logged 39,024 tokens, 33,744 estimated with it)
        gib += CUDA_CONTEXT_GIB
    if gpu.get("unified_memory"):
        gib += NON_TORCH_UNIFIED_GIB  # the host's share of start-up, seen through the shared memory
    return gib * GIB


def nvls_v0_bytes(tp: int, gpu: dict) -> float:
    """NCCL's NVLS buffers of the V0 TP group's two communicators on a multicast NVSwitch, which
    releases before 0.6.4 count against the cache (see runtime.py); none over 2 GPUs or fewer (NCCL
    leaves NVLS off there) or off such a baseboard. TP within one node: at most 8 heads."""
    if tp <= 2 or not gpu.get("nvls"):
        return 0.0
    return float(NVLS_V0_COMMUNICATORS * NVLS_CHANNELS * NVLS_CHANNEL_BYTES * min(tp, 8))


def nvls_v0_unknown_bytes(tp: int, pp: int, rt: Runtime, gpu: dict) -> float:
    """The NVLS buffers a release before 0.6.4 may count on a Hopper NVLink board whose multicast the
    catalog does not know (H800, H20, a bridged H100 NVL): not in the estimate, but in its error."""
    if rt.v1 or rt.new_profiler or tp <= 2 or gpu.get("nvls") or not _peer_to_peer(gpu):
        return 0.0
    if not (gpu.get("nvlink") and gpu.get("arch") == "hopper"):
        return 0.0
    return float(NVLS_V0_COMMUNICATORS * NVLS_CHANNELS * NVLS_CHANNEL_BYTES * min(tp, 8))


def _peer_to_peer(gpu: dict) -> bool:
    """Whether NCCL links the GPUs directly (NVLink, or P2P over PCIe), where its buffers are
    large. GeForce cards have no P2P; a GPU described only by its memory is not assumed to."""
    name = str(gpu.get("name") or "")
    described = gpu.get("id") == "custom" or not name  # `--gpu "24GiB cc8.9"`: which card is unknown
    return bool(gpu.get("nvlink")) or not (described or "GeForce" in name)
