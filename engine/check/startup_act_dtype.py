"""The activation-dtype part of the `startup` facts (check L120 `quant-activation-dtype`): which AWQ
kernel vLLM picks for the checkpoint — the plain AWQ kernel (float16 only), AWQ-Marlin (0.5.3–0.23,
float16 or bfloat16) or AutoAWQConfig (0.24+, float16 or bfloat16) — or which GPTQ kernel (the plain
one, float16 only, to 0.21; GPTQ-Marlin; AutoGPTQConfig 0.22+) — and whether the dtype the model
runs in is one that kernel takes; if not, the dtype that starts (none, for a model vLLM refuses
to run in float16 on a GPU without bfloat16).

Only what is certain is said: the kernel from an explicit --quantization or from the checkpoint's
own config.json (its `bits`, `zero_point` and `group_size` decide AWQ-Marlin), the dtype from an
explicit --dtype or from that same config.json. The tables are knowledge/vllm/startup.yaml
(quantization › act_dtypes, awq_marlin_group_sizes)."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.check.startup_quant import min_capability
from vllm_kb.engine.kb.versions import SpecifierSet, Version, try_parse

_TORCH = {"float16": "torch.float16", "bfloat16": "torch.bfloat16", "float32": "torch.float32"}


def _before(version: str, release: str) -> bool:
    v = try_parse(version)
    return v is not None and v < Version(release)


def act_dtypes(table: dict, kernel: str, version: str) -> list[str] | None:
    for row in (table["quantization"].get("act_dtypes") or {}).get(kernel) or []:
        if SpecifierSet(row["vllm"]).contains(version):
            return list(row["dtypes"])
    return None


def _marlin_ready(model: dict, table: dict) -> bool:
    """AWQMarlinConfig.is_awq_marlin_compatible on what config.json says (a key it lacks: no)."""
    sizes = table["quantization"].get("awq_marlin_group_sizes") or []
    return model.get("quant_bits") == 4 and model.get("quant_zero_point") is True \
        and model.get("quant_group_size") in sizes


def _inputs(facts: dict) -> tuple[dict, dict, str | None, str, bool]:
    """The model and GPU facts, --quantization as vLLM lower-cases it, the checkpoint's own method,
    and whether that method comes from its config.json."""
    model, engine, gpu = facts.get("model") or {}, facts.get("engine") or {}, facts.get("gpu") or {}
    flag = engine.get("quantization")
    flag = str(flag).strip().lower() if isinstance(flag, str) and flag.strip() else None
    ckpt = str(model.get("quant_method") or "").lower() if model.get("quantized") else ""
    return model, gpu, flag, ckpt, model.get("quant_source") == "config"


def awq_kernel(facts: dict, table: dict, version: str) -> str | None:
    """The AWQ kernel vLLM `version` builds the layers with, where that is certain; else None."""
    model, gpu, flag, ckpt, from_config = _inputs(facts)
    if flag is None and not (ckpt == "awq" and from_config):
        return None
    if flag not in (None, "awq", "awq_marlin", "marlin", "auto_awq"):
        return None
    if (flag and from_config and ckpt != "awq") or (flag is None and _before(version, "0.2.2")):
        return None  # another checkpoint (a mismatch, L9), or a release that reads no quantization_config
    if not _before(version, "0.24.0"):
        # AutoAWQConfig takes every AWQ checkpoint (awq, awq_marlin and marlin map to it)
        return "auto_awq" if flag != "marlin" or from_config else None
    if flag == "auto_awq":
        return None  # not a method before 0.24: L10 says so
    if flag == "awq" or _before(version, "0.5.3"):
        return "awq" if flag in (None, "awq") else None
    if flag == "awq_marlin" and _before(version, "0.6.0"):
        return None  # 0.5.x does not take awq_marlin for an AWQ checkpoint: a mismatch (L9)
    if not from_config or ckpt != "awq":
        return None
    cc = gpu.get("compute_capability")
    need = min_capability(table, "awq_marlin", None, version)
    if not _marlin_ready(model, table):
        return "awq" if flag is None else None  # an explicit Marlin method then mismatches (L9)
    if cc is None or need is None:
        return None
    if round(cc * 10) >= need:
        return "awq_marlin"
    return "awq" if flag is None else None


def gptq_kernel(facts: dict, table: dict, version: str) -> str | None:
    """The GPTQ kernel vLLM `version` builds the layers with, where that is certain: the plain GPTQ
    kernel, GPTQ-Marlin (0.4.2–0.21, chosen by GPTQMarlinConfig.override_quantization_method for a
    4- or 8-bit symmetric checkpoint whose config.json names bits, group_size, sym and desc_act, with
    a group size Marlin tiles, on a GPU Marlin runs on, unless --quantization gptq forces the plain
    one) or AutoGPTQConfig (0.22+, every GPTQ checkpoint); else None."""
    model, gpu, flag, ckpt, from_config = _inputs(facts)
    if flag is None and not (ckpt == "gptq" and from_config):
        return None
    if flag not in (None, "gptq", "gptq_marlin", "marlin", "auto_gptq") or (flag and from_config and ckpt != "gptq"):
        return None  # another method, or another checkpoint (a mismatch, L9)
    if not _before(version, "0.22.0"):
        return "auto_gptq" if flag != "marlin" or from_config else None
    if flag == "auto_gptq" or (flag == "gptq_marlin" and _before(version, "0.5.0")):
        return None  # not a method of the release, or not one 0.4.x takes for a GPTQ checkpoint
    if flag == "gptq" or _before(version, "0.4.2"):
        return "gptq" if flag in (None, "gptq") else None
    if not from_config or ckpt != "gptq":
        return None
    sizes = table["quantization"].get("awq_marlin_group_sizes") or []  # MARLIN_SUPPORTED_GROUP_SIZES, the same tiles
    ready = model.get("quant_bits") in (4, 8) and model.get("quant_sym") is True \
        and isinstance(model.get("quant_desc_act"), bool) and model.get("quant_group_size") in sizes
    if not ready:
        return "gptq" if flag is None else None  # an explicit Marlin method then fails its own way
    cc, need = gpu.get("compute_capability"), min_capability(table, "gptq_marlin", None, version)
    if cc is None or need is None:
        return None
    if round(cc * 10) >= need:
        return "gptq_marlin"
    return "gptq" if flag is None else None


def act_dtype_facts(facts: dict, table: dict, version: str, out: dict) -> dict[str, Any]:
    dtype = out.get("dtype")
    model = facts.get("model") or {}
    # `auto` resolves from the checkpoint's own torch_dtype: known from its config.json, or from the
    # named upload's (knowledge/hub_uploads.yaml) — never from the base model's, which a quantized
    # upload need not keep
    said = model.get("quant_source") == "config" or model.get("torch_dtype_source") == "upload"
    if dtype not in _TORCH or (not out.get("dtype_explicit") and not said):
        return {}
    kernel = awq_kernel(facts, table, version) or gptq_kernel(facts, table, version)
    takes = act_dtypes(table, kernel, version) if kernel else None
    if not takes:
        return {}
    got: dict[str, Any] = {"quant_kernel": kernel, "quant_act_dtypes": "[" + ", ".join(_TORCH[d] for d in takes) + "]",
                           "quant_dtype_ok": dtype in takes, "quant_torch_dtype": _TORCH[dtype]}
    if dtype in takes:
        return got
    cc = (facts.get("gpu") or {}).get("compute_capability")
    # bfloat16 first where the GPU has it: the range of the float32 or bfloat16 the model was run in
    for d in sorted(takes, key=lambda d: d != "bfloat16"):
        if d == "float16" and out.get("float16_unsafe"):
            continue  # vLLM 0.9.1+ refuses this model type in float16 (L5)
        if d == "bfloat16" and (cc is None or cc < 8.0):
            continue  # bfloat16 needs compute capability 8.0 (L4)
        got["quant_dtype_fix"] = "half" if d == "float16" else d  # as --dtype spells it (and the L4 fix)
        break
    else:
        got["quant_dtype_none"] = True
    return got


def cpu_quant_facts(facts: dict) -> dict[str, Any]:
    """startup.cpu_quant_method: on vLLM's CPU backend (site.platform "cpu") the AWQ or GPTQ method
    the model loader checks — the checkpoint's own (config.json) or --quantization awq/gptq. Up to
    0.6.3.post1 the CPU executor casts float16 to bfloat16 and the plain kernels take float16 only,
    so no dtype passes (knowledge L120); Marlin never runs there (no GPU capability)."""
    if (facts.get("site") or {}).get("platform") != "cpu":
        return {}
    _model, _gpu, flag, ckpt, from_config = _inputs(facts)
    ckpt = ckpt if from_config else ""
    method = flag or ckpt
    if method not in ("awq", "gptq") or (ckpt and ckpt != method):
        return {}  # another method, or a mismatch the loader reports first (L9)
    return {"cpu_quant_method": method}
