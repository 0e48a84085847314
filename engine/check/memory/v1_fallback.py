"""The flags that make 0.8.0-0.10.2 fall back to the V0 engine when VLLM_USE_V1 is unset
(EngineArgs._is_v1_supported_oracle in vllm/engine/arg_utils.py: 0.8.0 :1404, 0.8.5 :1292, 0.9.2 :1306,
0.10.1 :1362, 0.10.2 :1431). With VLLM_USE_V1=1 the same checks raise NotImplementedError (`_raise_or_fallback`) or run
V1 (`_warn_or_fallback`), so V1 stays certain there; only the unset case is modelled here.

A flag the site sets but that the audit could not read (site.unread) counts as a fallback: its value is
not known, so V1 is not certain."""
from __future__ import annotations

from typing import Any, Callable

from vllm_kb.engine.kb.versions import Version, parse

# V1_BACKENDS of the oracle ("No XFormers so far"): a VLLM_ATTENTION_BACKEND outside the release's list
# falls back (0.8.0 arg_utils.py:1567, 0.8.2 adds Triton, 0.8.5 FlashInfer, 0.9.0 AITER MLA, 0.9.1 CUTLASS MLA,
# SDPA and FlexAttention, 0.10.1 tree attention and XFormers, 0.10.2 :1502 the MLA spellings)
_V1_BACKENDS: list[tuple[str, tuple[str, ...]]] = [
    ("0.8.0", ("FLASH_ATTN_VLLM_V1", "FLASH_ATTN", "PALLAS", "PALLAS_VLLM_V1", "TRITON_MLA", "FLASHMLA")),
    ("0.8.2", ("TRITON_ATTN_VLLM_V1",)),
    ("0.8.5", ("FLASHINFER", "FLASHINFER_VLLM_V1")),
    ("0.9.0", ("ROCM_AITER_MLA",)),
    ("0.9.1", ("CUTLASS_MLA_VLLM_V1", "TORCH_SDPA_VLLM_V1", "FLEX_ATTENTION")),
    ("0.10.1", ("CUTLASS_MLA", "TREE_ATTN", "XFORMERS_VLLM_V1")),
    ("0.10.2", ("FLASHMLA_VLLM_V1", "FLASH_ATTN_MLA", "FLASHINFER_MLA")),
]
_GUIDED_082 = ("xgrammar", "xgrammar:disable-any-whitespace", "guidance", "auto")
_GUIDED_083 = _GUIDED_082 + ("guidance:disable-any-whitespace",)
_SPEC_090 = ("ngram", "[ngram]", "medusa", "eagle", "eagle3", "deepseek_mtp")


def _set(a: dict, key: str, default: Any) -> bool:
    return key in a and a[key] is not None and a[key] != default


def _spec_fallback(a: dict, v: Version) -> bool:
    """0.8.x: every speculative method falls back (ngram and EAGLE are `_warn_or_fallback`, 0.8.5
    :1485-1490); 0.9.0-0.9.2 keep V1 for ngram, Medusa, EAGLE and MTP (0.9.2 :1424-1443); 0.10 raises
    for a draft model instead of falling back."""
    spec = a.get("speculative_config")
    legacy = a.get("speculative_model") is not None or a.get("num_speculative_tokens") is not None
    if v < parse("0.9.0"):
        return spec is not None or legacy
    if spec is None:
        return legacy
    if not isinstance(spec, dict):
        return True  # a JSON string or a variable: the method is not read
    method = str(spec.get("method") or "").strip()
    if method:
        return method not in _SPEC_090
    return str(spec.get("model") or "").strip() not in ("ngram", "[ngram]")


def _pp_fallback(a: dict, v: Version) -> bool:
    """PP falls back in 0.8.0-0.8.1 (`_warn_or_fallback("PP")`), without Ray in 0.8.2-0.8.5, and
    outside ray/mp/external_launcher in 0.9.0 (the unset default None included; 0.9.1 admits it)."""
    pp = a.get("pipeline_parallel_size")
    if not isinstance(pp, int) or isinstance(pp, bool) or pp <= 1:
        return False
    backend = a.get("distributed_executor_backend")
    if v < parse("0.8.2"):
        return True
    if v < parse("0.9.0"):
        return backend != "ray"
    return backend not in ("ray", "mp", "external_launcher")


def _guided_fallback(a: dict, v: Version) -> bool:
    raw = a.get("guided_decoding_backend")
    if raw is None:
        return False  # the release's own default is a V1 backend
    name = str(raw).strip()
    if v < parse("0.8.2"):
        return name not in ("xgrammar", "xgrammar:nofallback")
    if v < parse("0.8.3"):
        return name not in _GUIDED_082
    if v < parse("0.8.5"):
        return name not in _GUIDED_083
    allowed = ("auto", "xgrammar", "guidance") + (("outlines",) if not v < parse("0.10.0") else ())
    # 0.8.5 compares the name before ':' (arg_utils.py:1338), 0.9.0-0.10.0 the whole value
    return (name.split(":")[0] if v < parse("0.9.0") else name) not in allowed


def _gguf(a: dict) -> bool:
    return a.get("quantization") == "gguf" or str(a.get("model") or "").endswith(".gguf")


# (flag names read, first release, first release without it, does it fall back)
_ROWS: list[tuple[tuple[str, ...], str, str, Callable[[dict, Version], bool]]] = [
    (("load_format",), "0.8.0", "0.9.0", lambda a, v: a.get("load_format") in ("tensorizer", "sharded_state")),
    (("load_format",), "0.9.0", "0.11.0", lambda a, v: a.get("load_format") == "sharded_state"),
    (("logits_processor_pattern",), "0.8.0", "0.11.0", lambda a, v: _set(a, "logits_processor_pattern", None)),
    (("preemption_mode",), "0.8.0", "0.11.0", lambda a, v: _set(a, "preemption_mode", None)),
    (("disable_async_output_proc",), "0.8.0", "0.11.0", lambda a, v: a.get("disable_async_output_proc") is True),
    (("scheduling_policy",), "0.8.0", "0.9.2", lambda a, v: _set(a, "scheduling_policy", "fcfs")),
    (("worker_cls", "worker_extension_cls"), "0.8.0", "0.8.2",
     lambda a, v: _set(a, "worker_cls", "auto") or _set(a, "worker_extension_cls", "")),
    (("num_scheduler_steps",), "0.8.0", "0.10.1", lambda a, v: _set(a, "num_scheduler_steps", 1)),
    (("scheduler_delay_factor",), "0.8.0", "0.11.0", lambda a, v: _set(a, "scheduler_delay_factor", 0.0)),
    (("additional_config",), "0.8.0", "0.8.5", lambda a, v: bool(a.get("additional_config"))),
    (("guided_decoding_backend",), "0.8.0", "0.10.1", _guided_fallback),
    (("enable_prompt_adapter",), "0.8.0", "0.10.0", lambda a, v: a.get("enable_prompt_adapter") is True),
    (("enable_prompt_embeds",), "0.9.0", "0.11.0", lambda a, v: a.get("enable_prompt_embeds") is True),
    (("cpu_offload_gb",), "0.8.0", "0.8.3", lambda a, v: _set(a, "cpu_offload_gb", 0)),
    # float32 only where asked: `auto` turns a float32 checkpoint into 16 bits on a GPU
    (("dtype",), "0.8.0", "0.9.2", lambda a, v: a.get("dtype") in ("float32", "float")),
    (("quantization",), "0.8.0", "0.8.3", lambda a, v: a.get("quantization") == "bitsandbytes"),
    (("quantization", "model"), "0.8.0", "0.9.0", lambda a, v: _gguf(a)),
    (("model_impl",), "0.8.0", "0.8.3", lambda a, v: a.get("model_impl") == "transformers"),
    (("max_num_partial_prefills", "max_long_partial_prefills"), "0.8.0", "0.11.0",
     lambda a, v: _set(a, "max_num_partial_prefills", 1) or _set(a, "max_long_partial_prefills", 1)),
    (("long_prefill_token_threshold",), "0.8.0", "0.8.3", lambda a, v: _set(a, "long_prefill_token_threshold", 0)),
    (("otlp_traces_endpoint", "collect_detailed_traces"), "0.8.0", "0.10.2",
     lambda a, v: bool(a.get("otlp_traces_endpoint")) or bool(a.get("collect_detailed_traces"))),
    (("speculative_config", "speculative_model", "num_speculative_tokens"), "0.8.0", "0.10.0", _spec_fallback),
    (("kv_transfer_config",), "0.8.0", "0.8.5", lambda a, v: bool(a.get("kv_transfer_config"))),
    (("enable_lora",), "0.8.0", "0.8.2", lambda a, v: a.get("enable_lora") is True),
    (("pipeline_parallel_size", "distributed_executor_backend"), "0.8.0", "0.9.1", _pp_fallback),
]


def _kv_fallback(a: dict, v: Version, env: dict, cc: float | None) -> bool:
    """A non-auto KV cache dtype: 0.8.0-0.8.1 fall back for any (0.8.0 :1480). 0.8.2-0.10.0 keep V1 for an
    FP8 cache that FlashAttention takes: VLLM_ATTENTION_BACKEND unset (or FLASH_ATTN_VLLM_V1) and
    flash_attn_supports_fp8(), FA3 on compute capability 9.x, the default there unless VLLM_FLASH_ATTN_VERSION
    says 2 (0.8.2 :1561-1572, 0.9.2 :1366-1380, vllm/attention/utils/fa_utils.py). 0.10.1 asks the platform
    (cuda.py :498): also any dtype on compute capability exactly 10.0. 0.10.2 (cuda.py :522) weighs the backend and
    MLA: with the variable unset, 10.0 and FA3 on 9.x pass whether or not the model is MLA (FlashMLA and
    CUTLASS MLA take FP8). Anything else, an unknown GPU included, is left uncertain."""
    kv = a.get("kv_cache_dtype")
    if kv is None or kv == "auto":
        return False
    if v < parse("0.8.2") or not isinstance(cc, (int, float)):
        return True
    fa_version = env.get("VLLM_FLASH_ATTN_VERSION")
    fa3_fp8 = str(kv).startswith("fp8") and int(cc) == 9 and (fa_version is None or str(fa_version).strip() == "3")
    blackwell = round(cc * 10) == 100  # is_device_capability(100)
    if v < parse("0.10.2"):
        takes_fa = "VLLM_ATTENTION_BACKEND" not in env or env["VLLM_ATTENTION_BACKEND"] == "FLASH_ATTN_VLLM_V1"
        return not ((takes_fa and fa3_fp8) or (not v < parse("0.10.1") and blackwell))
    return "VLLM_ATTENTION_BACKEND" in env or not (fa3_fp8 or blackwell)


def _v1_backends(v: Version) -> set[str]:
    return {b for first, names in _V1_BACKENDS if parse(first) <= v for b in names}


def v0_fallback(v: Version, args: dict, env: dict, unread: set[str], pooling: bool,
                inner_state: bool, cc: float | None = None) -> bool:
    """Whether this release (0.8.0-0.10.2) may run V0 for the flags the site sets (`args`: only those
    given explicitly), VLLM_ATTENTION_BACKEND, a pooling model (0.8.0-0.9.1: `--task` other than
    generate, 0.9.1 :1348) or a model with Mamba state (0.9.2-0.10.1.1 `_warn_or_fallback("Mamba")`, 0.9.2 :1404).
    `cc`: the GPU's compute capability, which the FP8 KV cache's check reads."""
    for keys, lo, hi, falls_back in _ROWS:
        if not parse(lo) <= v < parse(hi):
            continue
        if unread & set(keys) or falls_back(args, v):
            return True
    if v < parse("0.11.0") and ("kv_cache_dtype" in unread or _kv_fallback(args, v, env, cc)):
        return True
    if v < parse("0.9.2"):
        task = args.get("task")
        if pooling or "task" in unread or (task is not None and task not in ("generate", "auto")):
            return True
    if parse("0.9.2") <= v < parse("0.10.2") and inner_state:
        return True
    # envs.is_set: a variable set to "" is set, and "" is no V1 backend
    return "VLLM_ATTENTION_BACKEND" in env and str(env["VLLM_ATTENTION_BACKEND"]) not in _v1_backends(v)
