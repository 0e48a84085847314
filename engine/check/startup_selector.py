"""Whether the CUDA attention selector of a release that validates its backends (0.11.1+) finds
one for the model on the GPU: knowledge/vllm/attn_selector.yaml (tools/vllm_attn_selector.py)
says which backends the selector tries (MLA or not) and what each accepts; this module builds the
selector's configuration from the facts — head size, dtype, KV-cache dtype, attention sinks,
sparse (DeepSeek V3.2's indexer) attention, compute capability — and replays
`validate_configuration` for each candidate (vllm/platforms/cuda.py get_valid_backends /
get_attn_backend_cls). A value this audit does not know, or a backend rule the table could not
read, refuses nothing, so "no valid backend" is said only where every candidate refuses for a
reason that is known.

A forced backend (`--attention-backend`, VLLM_ATTENTION_BACKEND, or CUTLASS_MLA, which 0.11.1-0.12.0
set for MLA models on compute capability 10.0) is validated alone ("Selected backend … is not
valid for this configuration"). The change that starts the launch is searched in this order: drop
the forced backend, drop the KV-cache dtype, bfloat16 for float16, a later release."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.kb.mla import known_mla
from vllm_kb.engine.kb.versions import Version, try_parse

# the compute capabilities the tool evaluated each rule at: a GPU outside them is not judged
_EVALUATED = frozenset({7.0, 7.5, 8.0, 8.6, 8.7, 8.9, 9.0, 10.0, 10.3, 11.0, 12.0, 12.1})
_KV_FROM_CHECKPOINT = Version("0.14.0")
_ALIASES = {"FLASH_ATTN_VLLM_V1": "FLASH_ATTN", "TRITON_ATTN_VLLM_V1": "TRITON_ATTN"}
# ModelConfig.is_deepseek_mla: the model types whose attention vLLM runs as MLA (0.11.1-0.34.0)
# the cache dtypes tools/vllm_attn_selector.py (KVS) evaluates every backend over
GRID_KV = frozenset({"auto", "bfloat16", "fp8", "fp8_e4m3", "fp8_e5m2", "fp8_ds_mla", "fp8_inc", "nvfp4"})
MLA_TYPES = frozenset({"deepseek_v2", "deepseek_v3", "deepseek_v32", "deepseek_mtp", "kimi_k2", "kimi_linear",
                       "longcat_flash", "pangu_ultra_moe", "pangu_ultra_moe_mtp", "glm4_moe_lite", "glm_moe_dsa"})


def _span(table: dict, v: Version) -> dict | None:
    for s in table.get("spans") or ():
        if Version(s["first"]) <= v <= Version(s["last"]):
            return s
    return None


def _heads(spec: str, h: int) -> bool:
    if spec == "any":
        return True
    for part in spec.split(","):
        if "-" in part:
            rng, _, step = part.partition("/")
            lo, hi = (int(x) for x in rng.split("-"))
            if lo <= h <= hi and (h - lo) % int(step) == 0:
                return True
        elif int(part) == h:
            return True
    return False


def selector_config(model: dict, engine: dict, startup: dict, gpu: dict) -> dict[str, Any] | None:
    """What get_attn_backend_cls is handed, as far as it is known (None: not known)."""
    cc = gpu.get("compute_capability")
    if not isinstance(cc, (int, float)) or isinstance(cc, bool):
        return None
    mla = known_mla(model)  # None for a model nothing describes (its flags are defaults)
    if mla is None and model.get("num_key_value_heads"):
        mla = bool(model.get("kv_lora_rank"))
    if mla is None:
        return None
    mtype = model.get("model_type")
    if mla and mtype and mtype not in MLA_TYPES:
        return None  # a latent-attention config vLLM runs as plain attention (MiniCPM3)
    head = None
    if mla and model.get("kv_lora_rank") and model.get("qk_rope_head_dim"):
        head = model["kv_lora_rank"] + model["qk_rope_head_dim"]
    elif not mla:
        head = startup.get("head_size") or model.get("head_dim")
    kv: str | None = str(engine.get("kv_cache_dtype") or "auto").strip().lower()
    sparse = bool(model.get("index_topk")) if mla else False
    if sparse and str(kv).startswith("fp8"):
        kv = None  # DeepSeek V3.2's config hook rewrites an fp8 cache (fp8_ds_mla) in some releases
    if kv not in GRID_KV:
        # attn_selector.yaml evaluated each backend over these cache dtypes only: a TurboQuant
        # (turboquant_*) or other newer cache is not known to be refused (raises14: a false L71 P0)
        kv = None
    sinks = model.get("attention_sinks")
    # Gemma 4 builds its full-attention layers at global_head_dim: the selector is asked for each size
    wide = model.get("global_head_dim") if not mla else None
    heads = [head] + ([wide] if isinstance(wide, int) and head and wide != head else [])
    return {"cc": round(float(cc), 1), "mla": bool(mla), "head_size": head, "head_sizes": heads,
            "dtype": startup.get("dtype"), "kv": kv, "sink": sinks if isinstance(sinks, bool) else None,
            "sparse": sparse}


def _at(value, cc: float):
    """A backend rule as the table gives it: one answer, or one per compute capability (a rule
    that asks the GPU, such as FlashAttention's FP8 cache and sinks, FA3 on 9.x only)."""
    return value.get(cc) if isinstance(value, dict) else value


def reasons(backend: dict, cfg: dict, words: dict) -> list[str]:
    """validate_configuration's reasons for one backend, in its order, the known ones only."""
    out = []
    cc = cfg["cc"]
    heads, dtypes, kvs = _at(backend.get("head_sizes"), cc), _at(backend.get("dtypes"), cc), _at(backend.get("kv_dtypes"), cc)
    if cfg["head_size"] and heads is not None and not _heads(heads, cfg["head_size"]):
        out.append(words.get("supports_head_size", "head_size not supported"))
    if cfg["dtype"] and dtypes is not None and cfg["dtype"] not in dtypes:
        out.append(words.get("supports_dtype", "dtype not supported"))
    if cfg["kv"] and kvs is not None and cfg["kv"] not in kvs:
        out.append(words.get("supports_kv_cache_dtype", "kv_cache_dtype not supported"))
    if backend.get("mla") is not None and backend["mla"] != cfg["mla"]:
        out.append(words.get("is_mla" if cfg["mla"] else "not_is_mla", "MLA not supported"))
    if cfg["sink"] and _at(backend.get("sink"), cc) is False:
        out.append(words.get("supports_sink", "sink setting not supported"))
    if backend.get("sparse") is not None and backend["sparse"] != cfg["sparse"]:
        out.append(words.get("is_sparse" if cfg["sparse"] else "not_is_sparse", "sparse not supported"))
    ccs = backend.get("cc")
    if ccs is not None and cc in _EVALUATED and cc not in ccs:
        out.append(words.get("supports_compute_capability", "compute capability not supported"))
    return out


def pick(span: dict, cfg: dict) -> tuple[str | None, dict[str, list[str]]]:
    """The first candidate that validates (None: none does) and every refusal."""
    refused: dict[str, list[str]] = {}
    for name in (span["mla"] if cfg["mla"] else span["other"]).get(int(cfg["cc"]), ()):
        r = reasons(span["backends"][name], cfg, span.get("reasons") or {})
        if not r:
            return name, refused
        refused[name] = r
    return None, refused


def _render(refused: dict[str, list[str]]) -> str:
    return "{" + ", ".join(f"{b}: [{', '.join(r)}]" for b, r in refused.items()) + "}"


def _fix(table: dict, span: dict, cfg: dict, v: Version) -> dict[str, str]:
    auto = cfg.get("kv_auto", "auto")  # what dropping the setting hands the selector
    if cfg["kv"] not in (None, auto) and pick(span, {**cfg, "kv": auto})[0]:
        return {"kind": "kv_auto"}
    if cfg["dtype"] == "float16" and cfg["cc"] >= 8.0 and pick(span, {**cfg, "dtype": "bfloat16"})[0]:
        return {"kind": "bfloat16"}
    for s in table.get("spans") or ():
        if Version(s["first"]) > v and pick(s, cfg)[0]:
            return {"kind": "release", "release": s["first"]}
    return {"kind": "none"}


def _unhandled(backend: dict, name: str, cfg: dict) -> dict[str, Any]:
    """startup.attn_kv_unhandled: the backend validates the FP8 cache dtype but its own dtype
    helper raises for it when the engine starts (FlashAttention took every fp8* dtype on Hopper in
    0.11.1-0.21.x and knows only fp8/fp8_e4m3: "Unrecognized FP8 dtype: fp8_e5m2", vLLM #42587)."""
    bad = backend.get("kv_unhandled") or {}
    if cfg["kv"] and cfg["kv"] in (bad.get("dtypes") or ()):
        return {"attn_kv_unhandled": True, "attn_kv_backend": name, "attn_kv_line": bad.get("line")}
    return {}


def selector_facts(facts: dict, table: dict, version: str | None, startup: dict) -> dict[str, Any]:
    """startup.attn_none_valid (every candidate refuses) with attn_none_reasons (vLLM's rendering),
    or startup.attn_forced_invalid (the forced backend refuses) with attn_forced_backend; both with
    attn_select_fix (kv_auto, bfloat16, release, unset_backend, none) and, for a release,
    attn_select_release / attn_select_pin."""
    v = try_parse(version) if version else None
    if v is None:
        return {}
    span = _span(table, v)
    if span is None:
        return {}
    cfg = selector_config(facts.get("model") or {}, facts.get("engine") or {}, startup, facts.get("gpu") or {})
    if cfg is None:
        return {}
    model = facts.get("model") or {}
    if (v >= _KV_FROM_CHECKPOINT and model.get("quant_kv_cache") == "fp8" and not cfg["sparse"]
            and str(model.get("quant_method") or "").startswith("modelopt")):
        # 0.14.0+ hand the selector the checkpoint's KV-cache quantization when the setting is auto
        # (arg_utils resolve_kv_cache_dtype_string; ModelOpt's FP8 is fp8_e4m3)
        cfg = {**cfg, "kv_auto": "fp8_e4m3"}
        if cfg["kv"] == "auto":
            cfg.update(kv="fp8_e4m3", kv_resolved=True)
    # each head size's layers are built and validated apart: the first size that stops the start decides
    verdicts = [_judge(table, span, {**cfg, "head_size": h}, v, version, startup) for h in cfg["head_sizes"]]
    return next((x for x in verdicts if x.get("attn_none_valid") or x.get("attn_forced_invalid")), verdicts[0])


def _judge(table: dict, span: dict, cfg: dict, v: Version, version: str | None, startup: dict) -> dict[str, Any]:
    out: dict[str, Any] = {"attn_selector_line": span["line"] if span["first"] == version else span["last_line"]}
    forced = startup.get("backend")
    forced = _ALIASES.get(forced, forced) if isinstance(forced, str) else None
    by_config = False
    fm = span.get("forced_mla")
    if not forced and cfg["mla"] and fm and cfg["cc"] in fm["cc"]:
        forced, by_config = fm["backend"], True
    if forced:
        backend = span["backends"].get(forced)
        r = reasons(backend, cfg, span.get("reasons") or {}) if backend else []
        if not r:
            return _unhandled(backend, forced, cfg) if backend else {}
        if not by_config:
            fix = {"kind": "unset_backend"} if pick(span, cfg)[0] else _fix(table, span, cfg, v)
        else:  # the first release that no longer forces it and finds a backend
            fix = next(({"kind": "release", "release": s["first"]} for s in table["spans"]
                        if Version(s["first"]) > v and not (s.get("forced_mla") and cfg["cc"] in s["forced_mla"]["cc"])
                        and pick(s, cfg)[0]), {"kind": "none"})
        out.update({"attn_forced_invalid": True, "attn_forced_backend": forced, "attn_forced_by_config": by_config,
                    "attn_forced_reasons": "[" + ", ".join(repr(x) for x in r) + "]"})
    else:
        chosen, refused = pick(span, cfg)
        if chosen:
            return {"attn_selected": chosen, **_unhandled(span["backends"][chosen], chosen, cfg)}
        fix = _fix(table, span, cfg, v)
        out.update({"attn_none_valid": True, "attn_none_reasons": _render(refused)})
        if cfg.get("kv_resolved"):
            out["attn_kv_checkpoint"] = cfg["kv"]
    out["attn_select_fix"] = fix["kind"]
    if fix.get("release"):
        out["attn_select_release"] = fix["release"]
        out["attn_select_pin"] = ">=" + fix["release"]
    return out


def fp8_cache_on_triton(facts: dict, table: dict, version: str | None, startup: dict) -> bool:
    """An fp8 KV cache would run on the Triton backend of a GPU below 8.9 in 0.11.0-0.23.x (L8
    refuses it, so B3/F4 must not propose it): 0.11.0 sends it there off Hopper, 0.11.1+ when it
    is forced or the selector's pick for an fp8 cache is Triton (or none)."""
    v = try_parse(version) if version else None
    cc = (facts.get("gpu") or {}).get("compute_capability")
    # 0.24.0+ (Triton refuses it when built) are left to the KV table: the selector's pick there
    # is not yet judged by L8
    if (v is None or not isinstance(cc, (int, float)) or isinstance(cc, bool) or cc >= 8.9
            or not Version("0.11.0") <= v < Version("0.24.0")):
        return False
    forced = startup.get("backend")
    if isinstance(forced, str) and forced:
        return _ALIASES.get(forced, forced) == "TRITON_ATTN"
    if v < Version("0.11.1"):
        return 8.0 <= cc < 8.9
    fp8 = {**facts, "engine": {**(facts.get("engine") or {}), "kv_cache_dtype": "fp8"}}
    got = selector_facts(fp8, table, version, startup)
    return got.get("attn_selected") == "TRITON_ATTN" or bool(got.get("attn_none_valid"))
