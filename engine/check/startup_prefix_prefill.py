"""Whether a V0 engine on a Volta GPU runs vLLM's Triton prefix-prefill kernel (L147).

On GPUs below compute capability 8.0, V0 attends with the xFormers backend; a prefill that attends
to tokens already in the KV cache goes through PagedAttention.forward_prefix, the Triton kernel
vllm/attention/ops/prefix_prefill.py. With chunked prefill every prompt does: the attention
metadata builder hands prompts their block tables when chunked prefill is on (vllm/attention/
backends/utils.py `(chunked_prefill_enabled or not is_prompt)`, 0.5.5:178 … 0.8.4:185; in
0.4.x worker/model_runner.py), so xFormers takes the prefix path (backends/xformers.py
0.5.5:608, 0.8.4:578). With automatic prefix caching, every prompt that reuses a cached block
does. Triton cannot compile that kernel's float16 MMA for sm70 ("mma -> mma layout conversion is
only supported on Ampere"): the server starts, and the first such prefill aborts the process
(float32 takes no MMA and runs, vLLM #11352; bfloat16 becomes float16 on Volta). Reported for
0.4.x–0.8.4 (vLLM #4059, #5533, #6723, #8024, #13738; Ray #52377); later releases are not
claimed. Turing (7.5) has Triton's Ampere-style MMA and is not affected.

V0 turns chunked prefill on by itself above a 32K context (0.5.3+; EngineArgs.create_engine_config
0.6.3:944, `_set_default_args_v0` 0.8.4:1580) unless the model is multimodal (0.6.1.post2+), MLA (0.8+), has a
sliding window, or the launch uses LoRA, speculative decoding or pooling.

The same path with an fp8 (e4m3) KV cache below compute capability 8.9 (L8): from 0.5.5 the kernel
views the cache as torch.float8_e4m3fn (prefix_prefill.py 0.5.5:727, 0.6.4.post1:726-733; 0.8.5+
current_platform.fp8_dtype()), a type Triton has only on SM 8.9+ ("fp8e4nv data type is not supported
on CUDA arch < 89"); FlashAttention-2 refuses an FP8 KV cache, so V0 attends with xFormers there (selector.py
0.5.5:226, platforms/cuda.py 0.7.3:188, 0.10.1:416). The engine starts; the first chunked or prefix-cached
prefill fails in the engine loop (vLLM #10861 on 0.6.4.post1, the known issue #7714)."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.check.memory.reserve import v0_chunked_prefill
from vllm_kb.engine.kb.versions import Version, try_parse

FIRST, LAST = Version("0.4.0"), Version("0.9.0")  # the releases reports show it for (0.4.0 … 0.8.x)
FP8_FIRST, FP8_LAST = Version("0.5.5"), Version("0.11.0")  # the e4m3 view of the cache … the last V0 release (0.10.x)
CHUNKED = Version("0.4.1")  # 0.4.0 chunks nothing it has not cached


def _on(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "1", "false", "0"):
        return value.strip().lower() in ("true", "1")
    return None


def _default_chunked(facts: dict, max_len: Any, v: Version) -> bool:
    """V0's own chunked prefill for contexts above 32K, as the profile run sizes it
    (memory/reserve.py), less what create_engine_config also skips it for: a sliding window,
    speculative decoding, a pooling model."""
    model, engine = facts.get("model") or {}, facts.get("engine") or {}
    if not isinstance(max_len, int) or not v0_chunked_prefill(engine, max_len, model, v):
        return False
    if model.get("sliding_window_size") or engine.get("speculative_model") or engine.get("speculative_config"):
        return False
    return not (facts.get("site") or {}).get("pooling")


def prefix_prefill_facts(facts: dict, version: str, v1: bool, max_len: Any, backend: str | None) -> dict[str, Any]:
    """`prefill_triton_volta`: "chunked" (asked for), "chunked-default" (V0's own above 32K),
    "prefix-caching" or "prefix-caching-framework" (the framework's own default), where a V0 engine
    on compute capability 7.0–7.2 runs the Triton prefix kernel; nothing elsewhere."""
    v = try_parse(version) if version else None
    cc = (facts.get("gpu") or {}).get("compute_capability")
    if v1 or v is None or not FIRST <= v < LAST or not isinstance(cc, (int, float)) or not 7.0 <= cc < 7.5:
        return {}
    if backend and backend.upper() != "XFORMERS":
        return {}
    engine = facts.get("engine") or {}
    if str(engine.get("dtype") or "").strip().lower() in ("float32", "float"):
        return {}
    why = _why(facts, max_len, v)
    if why == "chunked" and v < CHUNKED:  # 0.4.0 chunks nothing: only a cached block reaches the kernel
        why = "prefix-caching" if _on(engine.get("enable_prefix_caching")) else None
    if why == "prefix-caching" and "enable_prefix_caching" in ((facts.get("site") or {}).get("framework_defaulted") or ()):
        why = "prefix-caching-framework"  # ms-swift's GRPO rollout: no flag to drop, the framework's key to turn off
    return {"prefill_triton_volta": why} if why else {}


def _why(facts: dict, max_len: Any, v: Version) -> str | None:
    """Why a V0 prefill attends to cached tokens through the kernel: chunked prefill asked for
    ("chunked"), V0's own above 32K ("chunked-default"), or prefix caching ("prefix-caching")."""
    engine = facts.get("engine") or {}
    chunked = _on(engine.get("enable_chunked_prefill"))
    if chunked:
        return "chunked"
    if chunked is None and _default_chunked(facts, max_len, v):
        return "chunked-default"
    return "prefix-caching" if _on(engine.get("enable_prefix_caching")) else None


def prefix_prefill_fp8_facts(facts: dict, version: str, v1: bool, max_len: Any, backend: str | None) -> dict[str, Any]:
    """`prefill_triton_fp8`: "chunked", "chunked-default" or "prefix-caching", where a V0 engine
    below compute capability 8.9 runs the Triton prefix-prefill kernel on an fp8 (e4m3) KV cache."""
    v = try_parse(version) if version else None
    cc = (facts.get("gpu") or {}).get("compute_capability")
    engine = facts.get("engine") or {}
    kv = str(engine.get("kv_cache_dtype") or "").strip().lower()
    if v1 or v is None or not FP8_FIRST <= v < FP8_LAST or not isinstance(cc, (int, float)) or not cc < 8.9:
        return {}
    if kv not in ("fp8", "fp8_e4m3") or (backend and backend.upper() != "XFORMERS"):
        return {}  # fp8_e5m2 has a Triton type below 8.9; a forced FlashInfer attends without the kernel
    why = _why(facts, max_len, v)
    return {"prefill_triton_fp8": why} if why else {}
