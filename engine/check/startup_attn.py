"""The attention backend a release runs a model with, and whether that backend refuses one of
the model's attention features (logits soft-capping, attention sinks) when the model is built.

What each backend refuses per release is knowledge/vllm/attention_refusals.yaml (extracted by
tools/vllm_attention_refusals.py); which backend a release picks is read here from vLLM's
selectors:
- V0 (vllm/attention/selector.py which_attn_to_use, 0.4.1-0.6.6; vllm/platforms/cuda.py
  get_attn_backend_cls from 0.7.0): the forced backend, else XFormers below compute capability
  8.0 or for float32, else FlashAttention (it too falls back to XFormers for some head sizes,
  KV-cache dtypes and block sizes: left undecided there, the one refusal of FlashAttention,
  0.5.3, is XFormers' too).
- V1 before 0.11.1 (vllm/platforms/cuda.py 0.10.2:356-384): below 8.0 FlexAttention (0.10.2+);
  a model with sinks on a GPU other than Hopper the Triton backend (0.10.1+); Blackwell
  FlashInfer when installed (undecided); else FlashAttention.
- V1 from 0.11.1: the selector validates every backend (validate_configuration) and picks the
  first valid one, so nothing chosen automatically refuses; a forced backend is validated and
  refused with "Selected backend … is not valid for this configuration" (vllm/platforms/cuda.py
  0.11.1:352-370), before the model is built.
- The gpt-oss preview build (`vllm==0.10.1+gptoss`, image vllm/vllm-openai:gptoss, main of 5 Aug
  2025) ran sinks with FlashAttention on every GPU below Blackwell: the Triton fallback for sinks
  off Hopper came with the 0.10.1 release (vllm/platforms/cuda.py 0.10.1:322; vLLM #22290).
The GPU decides two refusals: FlashAttention runs sinks only as FlashAttention 3 (Hopper,
vllm/v1/attention/backends/flash_attn.py), FlashInfer only through TRT-LLM kernels (Blackwell
SM 10.x, vllm/utils/flashinfer.py supports_trtllm_attention). From 0.11.1 the backend's own
supports_sink per compute capability comes from knowledge/vllm/attn_selector.yaml where the
sources settle it (FlashAttention: FA3 on 9.x; from 0.20 FA4 too, which a build may lack)."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.kb.versions import Version, try_parse

# the V1 names of 0.8-0.10 that became the plain ones
_ALIASES = {"FLASH_ATTN_VLLM_V1": "FLASH_ATTN", "TRITON_ATTN_VLLM_V1": "TRITON_ATTN", "XFORMERS_VLLM_V1": "XFORMERS"}
_VALIDATING = Version("0.11.1")
_PREVIEW_SINKS_FA = "gptoss"  # the local label of the preview build above


# ROCm backends whose supports_sink() is False (the base class's default, or ROCM_ATTN's own from
# 0.19.0, rocm_attn.py 0.19.0:197 "ROCM custom attention kernel does not support sinks") in the
# releases whose selectors validate a forced backend on both platforms (vllm/platforms/rocm.py
# 0.18.0:455, cuda.py from 0.11.1): validate_configuration adds "attention sinks not supported"
# (vllm/v1/attention/backend.py 0.19.1:283) and the selector raises "Selected backend … is not
# valid for this configuration". ROCM_AITER_FA declares sinks from 0.23.0, ROCM_AITER_UNIFIED_ATTN
# and ROCM_ATTN of 0.18.x do. Read up to 0.34.0.
ROCM_NO_SINKS: dict[str, tuple[str, str, str]] = {
    "ROCM_ATTN": ("0.19.0", "0.34.0", "vllm/v1/attention/backends/rocm_attn.py"),
    "ROCM_AITER_FA": ("0.18.0", "0.22.1", "vllm/v1/attention/backend.py"),
}


def rocm_sinks_refusal(forced: str | None, features: list[str], version: Version) -> dict[str, Any]:
    """startup.attn_nosink_backend: the forced ROCm backend refuses the model's attention sinks."""
    span = ROCM_NO_SINKS.get(forced or "")
    if span is None or "sinks" not in features or not Version(span[0]) <= version <= Version(span[1]):
        return {}
    return {"attn_nosink_backend": forced, "attn_nosink_file": span[2]}


def _v(version: str | None) -> Version | None:
    return try_parse(version) if version else None


def model_features(model: dict) -> list[str]:
    """The attention features of the model that a backend may refuse, as the table names them."""
    out = []
    cap = model.get("attn_logit_softcapping")
    if isinstance(cap, (int, float)) and not isinstance(cap, bool) and cap > 0:
        out.append("soft_cap")
    if model.get("attention_sinks") is True:
        out.append("sinks")
    return out


def picked_backend(forced: str | None, v1: bool, version: Version, cc: float | None, startup: dict,
                   features: list[str], build: str = "") -> str | None:
    """The backend the release runs: the forced one, else the one its selector picks, None where
    that depends on what this audit cannot see. `build`: a preview build's local version label."""
    forced = _ALIASES.get(forced, forced) if forced else None
    if not v1 and forced in (None, "FLASH_ATTN"):
        # V0 replaces FlashAttention by XFormers where it cannot run, forced or not
        if cc is None:
            return forced
        return "XFORMERS" if cc < 8.0 or startup.get("dtype") == "float32" else "FLASH_ATTN"
    if forced or cc is None:
        return forced
    if version >= _VALIDATING:
        return None
    if cc < 8.0:
        return "FLEX_ATTENTION" if version >= Version("0.10.2") else None
    if build == _PREVIEW_SINKS_FA and v1 and 8.0 <= cc < 10.0:
        return "FLASH_ATTN"
    if "sinks" in features and version >= Version("0.10.1") and int(cc) != 9:
        return "TRITON_ATTN"
    # 0.11.0 sends an fp8 KV cache off Hopper to Triton too (vllm/platforms/cuda.py 0.11.0:359)
    if (version == Version("0.11.0") and 8.0 <= cc < 10.0 and int(cc) != 9
            and str(startup.get("kv_cache_dtype") or "").startswith("fp8")):
        return "TRITON_ATTN"
    if int(cc) >= 10:
        return None
    if startup.get("head_size_fa_ok") is False or startup.get("dtype") == "float32":
        return "FLEX_ATTENTION" if version >= Version("0.10.0") else None
    return "FLASH_ATTN"


_UNREAD = "unread"


def _selector_sink(selector: dict | None, backend: str, cc: float, version: Version) -> bool | str | None:
    """The backend's own supports_sink on this GPU as the release's selector table read it from
    the sources (0.11.1+): True/False; None where the table says it is decided at run time for
    this GPU (0.30+ FlashInfer on Hopper, 0.28+ on 12.x: TRT-LLM's decode kernels, there when
    FlashInfer's cubins are, as vLLM's image downloads them); _UNREAD where it was not read."""
    for span in (selector or {}).get("spans") or ():
        if Version(span["first"]) <= version <= Version(span["last"]):
            sink = (span.get("backends", {}).get(backend) or {}).get("sink")
            if isinstance(sink, dict):
                return sink[round(cc, 1)] if round(cc, 1) in sink and (sink[round(cc, 1)] is None
                                                                      or isinstance(sink[round(cc, 1)], bool)) else _UNREAD
            return sink if isinstance(sink, bool) else _UNREAD
    return _UNREAD


def _gpu_refuses(feature: str, backend: str, cc: float | None, version: Version, selector: dict | None = None) -> bool | None:
    """Whether the GPU makes the backend refuse the feature (None: unknown GPU)."""
    if feature != "sinks":
        return True
    if cc is None:
        return None
    if version >= _VALIDATING:
        known = _selector_sink(selector, backend, cc, version)
        if known is None:
            return None  # decided at run time on this GPU: no refusal to claim
        if known is not _UNREAD:
            return not known
    if backend == "FLASH_ATTN":
        # FlashAttention 3 is Hopper's; 0.11.1+ validates below 9.0 (Blackwell's FA version varies)
        return True if int(cc) < 9 else (int(cc) != 9 and version < _VALIDATING)
    if backend == "FLASHINFER":
        return int(cc) != 10
    return True


# On ROCm, V0's selector returns ROCM_FLASH whatever VLLM_ATTENTION_BACKEND names
# (vllm/attention/selector.py 0.5.1:137-147, 0.5.3:135-145, 0.6.3:208-218, 0.6.4:239-249;
# platforms/rocm.py 0.6.5:48-57, 0.7.0:77-88; FlashInfer has no ROCm build). In 0.5.3 ROCm's metadata
# builder is the shared CommonMetadataBuilder (rocm_flash_attn.py 0.5.3:174), whose soft-cap refusal
# (backends/utils.py 0.5.3:162) the table files under XFormers; 0.5.4-0.7.0's ROCmFlashAttentionImpl
# refuses soft-capping itself (0.5.4:253). 0.7.1 moves that raise behind the Triton path
# (VLLM_USE_TRITON_FLASH_ATTN): later releases are not judged here.
_ROCM_ONLY = (Version("0.5.1"), Version("0.7.0"))
_ROCM_BUILDER = {"vllm/attention/backends/utils.py": "ROCM_FLASH"}


# the backends V0's selector picks between by the GPU when none is forced (picked_backend)
_V0_PICKS = ("FLASH_ATTN", "XFORMERS")


def _signature_row(table: dict, engine: str, backend: str, features: list[str], version: Version) -> dict | None:
    for row in table.get("refusals") or ():
        if row["engine"] == engine and row["backend"] == backend and row["feature"] in features \
                and row.get("kind") == "signature" and _in(row, version):
            return row
    return None


def _in(row: dict, version: Version) -> bool:
    first, last = _v(row["first"]), _v(row["last"])
    return first is not None and last is not None and first <= version <= last


def attn_facts(facts: dict, table: dict, version: str, forced: str | None, startup: dict,
               selector: dict | None = None) -> dict[str, Any]:
    """startup.attn_backend (the backend picked, where known), startup.attn_refusal (what it
    raises for this model: feature, text, file, line, first, last), startup.attn_validated (the
    refusal comes from 0.11.1's validation of a forced backend)."""
    v = _v(version)
    model, gpu = facts.get("model") or {}, facts.get("gpu") or {}
    features = model_features(model)
    cc = gpu.get("compute_capability")
    cc = float(cc) if isinstance(cc, (int, float)) and not isinstance(cc, bool) else None
    if v is None:
        return {}
    v1 = bool(startup.get("v1"))
    # the release looked up drops a build's local label; the site's own version keeps it
    build = str((facts.get("vllm") or {}).get("version") or version).partition("+")[2]
    kv = (facts.get("engine") or {}).get("kv_cache_dtype")
    backend = picked_backend(forced.strip() if isinstance(forced, str) and forced.strip() else None, v1, v, cc,
                             {**startup, "kv_cache_dtype": kv}, features, build)
    engine = "v1" if v1 else "v0"
    rocm = (facts.get("site") or {}).get("platform") == "rocm" and not v1 and _ROCM_ONLY[0] <= v <= _ROCM_ONLY[1]
    if rocm:
        backend = "ROCM_FLASH"
    if backend is None and not v1 and cc is None and features and not (isinstance(forced, str) and forced.strip()):
        # V0 picks FlashAttention or XFormers by the GPU, unknown here: where both Impls refuse the
        # feature by their signature (sinks, 0.10.1-0.10.2), the refusal holds on any GPU
        either = [_signature_row(table, engine, b, features, v) for b in _V0_PICKS]
        if all(either):
            backend = _V0_PICKS[0]
    out: dict[str, Any] = rocm_sinks_refusal(backend if forced else None, features, v)
    if backend:
        out["attn_backend"] = backend
    if not features or not backend:
        return out
    for row in table.get("refusals") or ():
        if row["engine"] != engine or row["feature"] not in features or not _in(row, v):
            continue
        if row["backend"] == "*":
            if backend == "FLASHINFER":
                continue
        elif (_ROCM_BUILDER.get(row["file"], row["backend"]) if rocm else row["backend"]) != backend:
            continue
        # an Impl constructor without `sinks` raises a TypeError on every GPU (V0 FlashAttention
        # on Hopper too: FA3 runs sinks only behind V1's Impl)
        if row.get("kind") != "signature" and not _gpu_refuses(row["feature"], backend, cc, v, selector):
            continue
        out["attn_refusal"] = {k: row[k] for k in ("feature", "text", "file", "line", "first", "last")}
        out["attn_refusal_feature"] = row["feature"]
        out["attn_error"] = row["text"]
        out["attn_validated"] = bool(forced) and v >= _VALIDATING
        if build == _PREVIEW_SINKS_FA and not forced:
            out["attn_preview_build"] = build
        break
    return out
