"""The KV cache as vLLM's (hybrid) KV-cache manager sizes it: bytes per token and layer
(full attention, MLA, sliding window), layers per pipeline stage, blocks, tokens and the
concurrency vLLM logs."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from vllm_kb.engine.check.memory.runtime import DEFAULT_BLOCK, Runtime, human_int
from vllm_kb.engine.check.memory.ssm import plan as ssm_plan, sizing_row
from vllm_kb.engine.kb.models import ceil_div, head_dim, kv_heads_per_gpu
from vllm_kb.engine.kb.versions import parse, try_parse

KV_BYTES = {"auto": None, "fp8": 1.0, "fp8_e4m3": 1.0, "fp8_e5m2": 1.0, "fp8_inc": 1.0, "int8": 1.0,
            "int8_per_token_head": 1.0, "nvfp4": 0.5625, "bfloat16": 2.0, "float16": 2.0, "half": 2.0, "float": 4.0}
FP8_DS_MLA_BYTES = 656  # DeepSeek V3.2 sparse MLA: fp8 latent + scales + bf16 rope, per token and layer


def kv_element_bytes(engine: dict, model: dict) -> float:
    kv = str(engine.get("kv_cache_dtype") or "auto").lower()
    per = KV_BYTES.get(kv)
    if per is not None:
        return per
    if kv.startswith("fp8"):
        return 1.0
    dtype = str(engine.get("dtype") or "auto").lower()
    return 4.0 if dtype in ("float32", "fp32", "float") else 2.0


def checkpoint_kv_dtype(engine: dict, model: dict, version: str | None) -> dict:
    """The engine arguments with kv_cache_dtype as vLLM resolves "auto" from 0.14.0: a ModelOpt
    checkpoint's FP8 KV cache (kv_cache_scheme / kv_cache_quant_algo) becomes the cache's dtype,
    fp8_e4m3 (arg_utils resolve_kv_cache_dtype_string, torch_utils MODELOPT_TO_VLLM_KV_CACHE_DTYPE_MAP,
    0.14.0-0.34.0), so the pool holds one byte an element, not the model's two. Not for DeepSeek
    V3.2's sparse MLA, whose config hook rewrites an fp8 cache in some releases."""
    from vllm_kb.engine.kb.versions import Version, try_parse

    v = try_parse(version) if version else None
    if (str(engine.get("kv_cache_dtype") or "auto").strip().lower() != "auto" or model.get("quant_kv_cache") != "fp8"
            or not str(model.get("quant_method") or "").lower().startswith("modelopt")
            or (v is not None and v < Version("0.14.0")) or (model.get("kv_lora_rank") and model.get("index_topk"))):
        return engine
    return {**engine, "kv_cache_dtype": "fp8_e4m3"}


def mla_cache(model: dict, engine: dict, rt: Runtime) -> str:
    """How the release caches a DeepSeek-style MLA model: its latent, or full K and V per head.
    0.7.1–0.7.2 also fell back to full K/V for quantizations other than fp8 and compressed-tensors;
    a model type the release's is_deepseek_mla does not list (engine/kb/mla.py) is never MLA there."""
    mode = rt.mla_cache
    if mode == "latent" and model.get("mla_release") is False:
        return "full192"
    if mode == "latent" and rt.version:
        from vllm_kb.engine.kb.versions import Version, try_parse

        v = try_parse(rt.version)
        q = str(engine.get("quantization") or model.get("quant_method") or "").lower()
        if v is not None and Version("0.7.1") <= v < Version("0.7.3") and q not in ("", "fp8", "compressed-tensors"):
            mode = "full192"
    return mode


def _aligned_latent(rt: Runtime) -> bool:
    from vllm_kb.engine.kb.versions import Version, try_parse

    v = try_parse(rt.version) if rt.version else None
    return not rt.v1 and v is not None and Version("0.7.2") <= v < Version("0.8.0")


def mla_absorbs(model: dict, engine: dict, rt: Runtime, env: dict | None = None) -> bool:
    """Whether the release's V0 MLA backend keeps absorbed matrices beside the weights
    (0.7.1-0.7.3 with the latent cache; VLLM_MLA_PERFORM_MATRIX_ABSORPTION=0 turns it off)."""
    from vllm_kb.engine.kb.versions import Version, try_parse

    v = try_parse(rt.version) if rt.version else None
    off = str((env or {}).get("VLLM_MLA_PERFORM_MATRIX_ABSORPTION", "")).strip() == "0"
    return (bool(model.get("kv_lora_rank")) and not rt.v1 and mla_cache(model, engine, rt) == "latent" and not off
            and v is not None and Version("0.7.1") <= v < Version("0.8.0"))


def kv_bytes_per_token_layer(model: dict, engine: dict, tp: int, rt: Runtime | None = None) -> float:
    """One token, one layer, one GPU. Full attention stores K and V for this rank's KV heads;
    MLA stores one latent (kv_lora_rank + qk_rope_head_dim) that every TP rank keeps whole —
    from 0.7.1; before, K and V of every head (192 wide, padded to 256 before 0.7.0)."""
    if model.get("kv_lora_rank"):
        mode = mla_cache(model, engine, rt) if rt is not None else "latent"
        if mode != "latent":
            width = 256 if mode == "full256" else (model.get("qk_nope_head_dim") or 128) + (model.get("qk_rope_head_dim") or 64)
            heads = max(1, (model.get("num_attention_heads") or 1) // max(1, tp))
            return 2 * heads * width * kv_element_bytes(engine, model)
        if str(engine.get("kv_cache_dtype") or "") == "fp8_ds_mla":
            return FP8_DS_MLA_BYTES
        latent = model["kv_lora_rank"] + (model.get("qk_rope_head_dim") or 0)
        if rt is not None and _aligned_latent(rt):
            # V0 0.7.2-0.7.3 pads each entry to 256 bytes of the model dtype (cache_engine.py
            # _align_cache, VLLM_CUDA_MEM_ALIGN_KV_CACHE): DeepSeek's 576 -> 640 elements
            per = 256 // (4 if str(engine.get("dtype") or "").lower() in ("float32", "fp32", "float") else 2)
            latent = ceil_div(latent, per) * per
        return latent * kv_element_bytes(engine, model)
    return 2 * kv_heads_per_gpu(model, tp) * head_dim(model) * kv_element_bytes(engine, model)


def full_layer_bytes(model: dict, engine: dict, tp: int) -> float:
    """One token of one full-attention layer on one GPU where those layers are built wider than the
    others (Gemma 4, gemma4.py Gemma4DecoderLayer: global_head_dim; with attention_k_eq_v the
    num_global_key_value_heads, K stored in the V slot too, so both are cached); 0 elsewhere."""
    wide = model.get("global_head_dim")
    if not wide or model.get("kv_lora_rank"):
        return 0.0
    heads = model.get("num_key_value_heads") or model.get("num_attention_heads") or 1
    if model.get("attention_k_eq_v") and model.get("num_global_key_value_heads"):
        heads = model["num_global_key_value_heads"]
    return 2 * max(1, heads // max(1, tp)) * wide * kv_element_bytes(engine, model)


@dataclass(frozen=True)
class KVLayout:
    per_layer: float   # bytes per token per layer on one GPU (the sliding layers' where full_bytes is set)
    full: int          # full-attention layers on one GPU (its pipeline stage)
    sliding: int       # sliding-window layers kept to their window
    window: int
    block: int
    ssm: int = 0                     # Mamba / linear-attention state layers (memory/ssm.py)
    ssm_blocks: int = 1              # blocks a state group holds per request
    group_ratio: float | None = None  # vLLM takes the larger count as group size below this ratio
    v0_state: float = 0.0            # bytes V0's MambaCacheManager takes before the KV cache
    local_extra: int = 1             # a sliding window's extra block; a Llama 4 chunk has none
    full_bytes: float = 0.0          # a full-attention layer's bytes per token when wider (Gemma 4)
    shards: int = 1                  # context-parallel ranks a request's full-attention tokens spread over

    @property
    def page(self) -> float:
        """Bytes of one block of one layer. Where the kinds' pages differ vLLM raises the smaller
        page's block size until both match (kv_cache_utils.py unify_kv_cache_spec_page_size)."""
        return max(self.per_layer, self.full_bytes if self.full else 0.0) * self.block

    def _kind_block(self, per_token: float) -> int:
        return max(1, round(self.page / per_token)) if per_token > 0 else self.block

    @property
    def full_block(self) -> int:
        return self._kind_block(self.full_bytes or self.per_layer)

    @property
    def sliding_block(self) -> int:
        return self._kind_block(self.per_layer)

    @property
    def min_block(self) -> int:
        sizes = ([self.full_block] if self.full else []) + ([self.sliding_block] if self.sliding else [])
        return min(sizes) if sizes else self.block

    @property
    def bytes_per_token(self) -> float:
        return self.per_layer * self.sliding + (self.full_bytes or self.per_layer) * self.full

    @property
    def kinds(self) -> list[int]:
        return [n for n in (self.full, self.sliding, self.ssm) if n > 0]

    @property
    def hybrid(self) -> bool:
        return len(self.kinds) > 1

    @property
    def group_size(self) -> int:
        """Layers that share one block tensor: all of them, or for a hybrid model the smaller
        count of the kinds (vLLM groups layers n:1, padding the last group) — the larger when it
        is below group_ratio x the smaller (1.25 from 0.12.0, 1.5 from 0.18.0)."""
        if not self.hybrid:
            return sum(self.kinds)
        lo, hi = min(self.kinds), max(self.kinds)
        return hi if self.group_ratio and hi < lo * self.group_ratio else lo

    @property
    def groups(self) -> tuple[int, int]:
        """(full-attention groups, sliding-window groups)."""
        if not self.hybrid:
            if self.ssm:  # attention-free: the state groups only
                return (0, 0)
            return (1, 0) if self.full else (0, 1)
        gs = self.group_size
        return ceil_div(self.full, gs), ceil_div(self.sliding, gs)

    @property
    def ssm_groups(self) -> int:
        if not self.ssm:
            return 0
        return ceil_div(self.ssm, self.group_size) if self.hybrid else 1

    def blocks(self, available: float) -> int:
        if self.page * self.group_size <= 0:  # a config.json with zero heads or widths
            return 0
        return max(0, int(available // (self.page * self.group_size)))

    def blocks_per_request(self, max_len: int, batched: int) -> int:
        full_groups, sliding_groups = self.groups
        full = ceil_div(ceil_div(max_len, self.shards), self.full_block)
        local = ceil_div(min(self.window - 1 + batched, max_len), self.sliding_block) + self.local_extra
        return full_groups * full + sliding_groups * local + self.ssm_groups * self.ssm_blocks


def pp_stage_layers(layers: int, pp: int, partition: tuple[int, ...] | None = None) -> list[int]:
    """Layers per pipeline stage as vLLM splits them (get_pp_indices): VLLM_PP_LAYER_PARTITION
    when it names one count per stage summing to the layers, else an even share with the
    remainder going to the stages before the last."""
    if partition and len(partition) == pp and sum(partition) == layers:
        return list(partition)
    parts = [layers // pp] * pp
    for i in range(2, layers % pp + 2):
        parts[-i] += 1
    return parts


def kv_layer_count(model: dict, layers: int | None = None) -> int:
    """Of `layers` (default: all), those that allocate a KV cache: vLLM gives a layer that reads an
    earlier layer's cache (kv_sharing_target_layer_name: Gemma 3n's and Gemma 4's last
    num_kv_shared_layers) no KV-cache spec (gpu_model_runner.get_kv_cache_spec)."""
    total = int(model.get("num_hidden_layers") or 0)
    layers = total if layers is None else layers
    shared = model.get("num_kv_shared_layers")
    if not (isinstance(shared, int) and not isinstance(shared, bool) and 0 < shared < total):
        return layers
    return round(layers * (total - shared) / total)


# Context parallelism spreads a request's tokens over ranks, and the start-up check counts one rank's
# share: AttentionSpec.max_memory_usage_bytes takes cdiv(max_model_len, shards) tokens (vllm/v1/
# kv_cache_interface.py), decode CP from 0.10.2 (0.10.2:94), decode x prefill CP in 0.12.0-0.25.x
# (0.12.0:102, 0.25.1:244), decode CP alone again from 0.26.0 (0.26.0:262, 0.34.0:658)
DCP_SINCE, PCP_SHARDS = "0.10.2", ("0.12.0", "0.26.0")


def kv_token_shards(engine: dict, version: str | None) -> int:
    """Ranks one request's full-attention tokens are spread over (1 without context parallelism;
    an unknown release counts as the newest)."""
    v = try_parse(version) if version else None
    if v is not None and v < parse(DCP_SINCE):
        return 1
    dcp, pcp = human_int(engine.get("decode_context_parallel_size")), human_int(engine.get("prefill_context_parallel_size"))
    shards = dcp if dcp and dcp > 1 else 1
    if pcp and pcp > 1 and v is not None and parse(PCP_SHARDS[0]) <= v < parse(PCP_SHARDS[1]):
        shards *= pcp
    return shards


def kv_layout(model: dict, engine: dict, tp: int, layers: int, rt: Runtime) -> KVLayout:
    """The KV-cache shape of one GPU holding `layers` of the model."""
    shards = kv_token_shards(engine, rt.version)
    layout = _layout(model, engine, tp, layers, rt)
    return replace(layout, shards=shards) if shards > 1 else layout


def _layout(model: dict, engine: dict, tp: int, layers: int, rt: Runtime) -> KVLayout:
    layers = kv_layer_count(model, layers)
    sliding = 0
    window = int(model.get("sliding_window_size") or 0)
    if window and model.get("num_sliding_layers"):
        sliding = round(int(model["num_sliding_layers"]) * layers / model["num_hidden_layers"])
        if sliding < layers and not hybrid_manager_on(engine, rt):
            sliding = 0  # without the hybrid manager a local layer keeps every token
    extra = 1
    chunk = int(model.get("attention_chunk_size") or 0)
    if not window and chunk and model.get("num_chunked_layers") and _chunked_hybrid(engine, rt):
        # ChunkedLocalAttentionSpec: min(chunk + max_num_batched_tokens, max_model_len) tokens, no extra block
        window, extra = chunk + 1, 0
        sliding = round(int(model["num_chunked_layers"]) * layers / model["num_hidden_layers"])
    block = int(engine.get("block_size") or DEFAULT_BLOCK)
    per_layer = kv_bytes_per_token_layer(model, engine, tp, rt)
    p = ssm_plan(model, engine, tp, layers, rt.v1, rt.version, per_layer, _given_block(engine))
    if p is not None:  # a hybrid state-space model: only its attention layers keep tokens
        if not p.v1:
            return KVLayout(per_layer, p.attention, 0, 0, block, v0_state=p.v0_state_total)
        if not p.attention:  # attention-free (Mamba, Mamba2): a block is one request's state
            return KVLayout(p.state / block, 0, 0, 0, block, ssm=p.state_layers, ssm_blocks=p.state_blocks)
        return KVLayout(per_layer, p.attention, 0, 0, p.block, ssm=p.state_layers, ssm_blocks=p.state_blocks,
                        group_ratio=p.group_ratio)
    ratio = (sizing_row(rt.version) or {}).get("group_ratio") if sliding else None
    wide = full_layer_bytes(model, engine, tp)
    if wide and wide != per_layer:
        local = round(int(model.get("num_sliding_layers") or 0) * layers / model["num_hidden_layers"])
        if not sliding:  # every layer keeps every token: the two kinds' bytes, averaged over the layers
            per_layer = (per_layer * local + wide * (layers - local)) / max(1, layers)
            wide = 0.0
        return KVLayout(per_layer, layers - sliding, sliding, window, block, group_ratio=ratio, local_extra=extra,
                        full_bytes=wide)
    return KVLayout(per_layer, layers - sliding, sliding, window, block, group_ratio=ratio, local_extra=extra)


def _chunked_hybrid(engine: dict, rt: Runtime) -> bool:
    """Whether the release keeps Llama 4's chunked layers to their chunk; never with an EAGLE
    drafter (0.10.0+: "not yet supported with chunked local attention + eagle")."""
    spec = str(engine.get("speculative_config") or engine.get("speculative_model") or "").lower()
    return rt.chunked_hybrid and hybrid_manager_on(engine, rt) and "eagle" not in spec


def _given_block(engine: dict) -> int | None:
    v = engine.get("block_size")
    return int(v) if isinstance(v, int) and not isinstance(v, bool) and v > 0 else None


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
    sliding_groups += layout.ssm_groups  # counted alike in the tokens vLLM logs
    if rt.group_concurrency:
        concurrency = blocks / per_request if per_request else 0.0
    else:  # V0 and early V1: tokens over max_model_len
        concurrency = blocks * layout.block / max_len
    if rt.tokens_from_concurrency:
        tokens = int(concurrency * max_len)
    else:  # blocks spread evenly over the groups, counted in the smallest block size
        tokens = blocks // (full_groups + sliding_groups) * layout.min_block * layout.shards
    return {"kv_blocks": blocks, "kv_tokens": tokens, "max_concurrency": round(concurrency, 2),
            "kv_groups": full_groups + sliding_groups, "fits_max_model_len": concurrency >= 1.0,
            "max_model_len_fit": _longest_fit(layout, blocks, batched, max_len)}


def _longest_fit(layout: KVLayout, blocks: int, batched: int, max_len: int) -> int:
    """Longest request the cache holds (vLLM's "estimated maximum model length")."""
    lo, hi = 0, max(max_len, blocks * max(layout.block, layout.full_block) * layout.shards)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if layout.blocks_per_request(mid, batched) <= blocks:
            lo = mid
        else:
            hi = mid - 1
    return lo


def safe_len(fit: int, block: int, margin: float) -> int:
    """A max_model_len to suggest: `margin` below what the cache holds (the estimate's own error),
    rounded down to a multiple of 1024 (of the block size for short contexts)."""
    want = int(fit * (1 - margin))
    step = 1024 if want >= 4096 else max(1, block)
    return want // step * step
