"""A KV-cache block size the attention backend a release runs cannot lay out.

FlashAttention's and Triton's V1 backends store the cache in pages of a multiple of 16 tokens:
their get_kv_cache_shape raises "Block size must be a multiple of 16." when the engine core
allocates the KV cache, after the memory profile (vllm/v1/attention/backends/flash_attn.py
0.8.1:61, 0.11.0:86; triton_attn.py from 0.8.5). Which releases reach it with a block size the
command line still offers (`--block-size 8`):
- V0 never does: its selector sends a block size not divisible by 16 to XFormers instead of
  FlashAttention (vllm/platforms/cuda.py 0.8.1:252).
- V1 from 0.8.0 to 0.11.0 picks its backend without asking about the block size
  (vllm/platforms/cuda.py 0.8.1:214-217, 0.11.0:356-366): FlashAttention on compute capability
  8.0+, Triton for sinks or an fp8 cache off Hopper (startup_attn.picked_backend), so the launch
  stops there.
- 0.11.1-0.12.0 and 0.18.0+ hand the block size to the selector, which asks each backend's
  supports_block_size (supported_kernel_block_sizes: FlashAttention, FlashInfer and Triton take
  multiples of 16) and moves on to FlexAttention, which takes any: nothing chosen refuses it. A
  forced one of those three is validated alone: 0.18.0+ with the block size, refused there
  ("Selected backend … is not valid for this configuration. Reason: ['block_size not supported']");
  0.11.1-0.12.0 validate it with block_size None (vllm/platforms/cuda.py 0.11.1:358-366, 0.12.0:345-349),
  so it is taken and select_common_block_size raises "No common block size for 8." when the KV cache
  is set up (vllm/v1/worker/gpu_model_runner.py 0.11.1:4655, 0.12.0:4888).
- 0.13.0-0.17.1 drop it before they select (vllm/platforms/cuda.py 0.13.0 get_attn_backend_cls
  `attn_selector_config._replace(block_size=None)`), so the backend the selector picks
  (startup_selector: startup.attn_selected) meets the block size only when the KV cache is set up,
  and select_common_block_size raises "No common block size for 8." (vllm/v1/worker/
  gpu_model_runner.py 0.13.0:5012, vllm/v1/worker/utils.py 0.17.1:327).
- 0.21.0+ give FlexAttention kernel block sizes of a multiple of 16 too (vLLM PR #41363): a block size
  the user set reaches the selector (vllm/v1/attention/selector.py 0.21.0:78, user_specified_block_size),
  every CUDA candidate of a model without MLA (FlashAttention, FlashInfer, Triton, FlexAttention,
  TurboQuant [16, 32, 64, 128]; the 0.31+ Triton composites) refuses it, and get_valid_backends raises
  "No valid attention backend found for cuda … Reasons: {…: [block_size not supported]}" while the model
  is built (vllm/platforms/cuda.py 0.21.0:336, 0.34.0:514). 0.18.0-0.20.x still take it with FlexAttention.
MLA models (their own backends; FlashMLA and CUTLASS MLA set 64 and 128 themselves) and hybrid
models (the platform raises the attention block size to the Mamba page) are not judged."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.kb.mla import known_mla
from vllm_kb.engine.kb.versions import Version, try_parse

_FIRST_V1 = Version("0.8.0")
_VALIDATING = Version("0.11.1")
# the releases whose selector drops the block size, and the first that weighs it again
_DROPPED, _WEIGHED = Version("0.13.0"), Version("0.18.0")
# the first release whose every CUDA backend of a model without MLA refuses such a block size (FlexAttention too)
_NONE_TAKES = Version("0.21.0")
# the V1 backends whose get_kv_cache_shape refuses it, from the first release that raises there
_REFUSING = {"FLASH_ATTN": (Version("0.7.0"), "FlashAttention"), "TRITON_ATTN": (Version("0.8.5"), "Triton")}
# their kernel block sizes in 0.13.0-0.17.1: [16, 32, 64] or MultipleOf(16)
_KERNEL_16 = {"FLASH_ATTN": "FlashAttention", "FLASHINFER": "FlashInfer", "TRITON_ATTN": "Triton"}
_MULTIPLE = 16


def block_facts(facts: dict, version: str, startup: dict) -> dict[str, Any]:
    """startup.block_refused (the backend the release runs raises for the block size),
    startup.block_backend (its name as vLLM's log prints it) and startup.block_error (what it raises)."""
    engine, model = facts.get("engine") or {}, facts.get("model") or {}
    size = engine.get("block_size")
    v = try_parse(version) if version else None
    if not isinstance(size, int) or isinstance(size, bool) or size <= 0 or size % _MULTIPLE == 0 or v is None:
        return {}
    if not startup.get("v1") or known_mla(model) or model.get("ssm"):  # MLA as the release decides it
        return {}
    cc = (facts.get("gpu") or {}).get("compute_capability")
    if _FIRST_V1 <= v < _VALIDATING:
        refusing = _REFUSING.get(str(startup.get("attn_backend") or ""))
        # below 8.0 a forced FlashAttention stops before, when the model is built (L13's own rules)
        if refusing is None or v < refusing[0] or not isinstance(cc, (int, float)) or cc < 8.0:
            return {}
        return {"block_refused": True, "block_backend": refusing[1], "block_error": "Block size must be a multiple of 16."}
    if startup.get("attn_forced_invalid"):
        return {}  # the forced backend is refused for another reason first (L13's selector rule)
    if _DROPPED <= v < _WEIGHED:
        # a forced backend is validated without the block size too, and stops here the same way
        name = _KERNEL_16.get(str(startup.get("backend") or startup.get("attn_selected") or ""))
        if name:
            return {"block_refused": True, "block_backend": name, "block_error": f"No common block size for {size}."}
        return {}
    forced = str(startup.get("backend") or "")
    if forced in _KERNEL_16:
        if v < _DROPPED:
            # 0.11.1-0.12.0 validate a forced backend without the block size and take it: the KV cache
            # setup finds no kernel block size for it (gpu_model_runner.py 0.11.1:4655)
            return {"block_refused": True, "block_forced": True, "block_backend": _KERNEL_16[forced],
                    "block_error": f"No common block size for {size}."}
        # 0.18.0+ validate a forced backend with the block size: supports_block_size refuses it before
        # the model is built (vllm/platforms/cuda.py 0.18.0:253)
        return {"block_refused": True, "block_forced": True, "block_backend": _KERNEL_16[forced],
                "block_error": f"Selected backend {forced} is not valid for this configuration. Reason: ['block_size not supported']"}
    platform = (facts.get("site") or {}).get("platform")
    # an MLA model has other candidates (Triton MLA takes any size): only a model known not to be one
    if v >= _NONE_TAKES and not forced and known_mla(model) is False and isinstance(cc, (int, float)) \
            and platform in (None, "cuda"):
        return {"block_refused": True, "block_backend": "every CUDA attention backend",
                "block_error": f"No valid attention backend found for cuda with AttentionSelectorConfig(…, block_size={size}, …). "
                               "Reasons: {FLASH_ATTN: [block_size not supported], FLASHINFER: [block_size not supported], "
                               "TRITON_ATTN: [block_size not supported], FLEX_ATTENTION: [block_size not supported], …}."}
    return {}
