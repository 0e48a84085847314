"""What a checkpoint's quantization_config says, read the way vLLM reads it: the method (ModelOpt's
resolved, a multimodal language model's nested one), the compressed-tensors scheme, the group or
block size the weights are split by, the FP8 KV cache a ModelOpt config asks for, the modules left
unquantized."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.kb.layer_config import config_dim as _dim
from vllm_kb.engine.kb.modelopt_config import modelopt_config, resolved_method
from vllm_kb.engine.kb.unquantized import coverage, ignore_unfused


def normalise_quant(method: str) -> str:
    """A quantization method as vLLM compares it: lower case, compressed_tensors spelt with a dash."""
    m = str(method).strip().lower()
    return "compressed-tensors" if m == "compressed_tensors" else m


def config_quant_facts(facts: dict, config: dict) -> None:
    """The quantization facts of a config.json (its own quantization_config, a ModelOpt one resolved,
    a multimodal checkpoint's language model's, a BitsAndBytesConfig without quant_method): the
    method vLLM resolves, the scheme, the group or block size, the kernels' keys, the layers kept in
    16 bits; each replaces what the catalog guessed."""
    quant = config.get("quantization_config")
    quant = modelopt_config(quant) if isinstance(quant, dict) else quant
    facts.pop("quant_nested", None)  # the catalog's guess; the checkpoint's own layout follows
    facts.pop("quant_method_key", None)
    nested = _nested_quant(config) if quant is None else None
    if nested is not None:
        # a multimodal checkpoint that quantized only its language model (OpenGVLab's InternVL AWQ):
        # vLLM reads it there from 0.10.2 only (ModelConfig._verify_quantization), see startup_quant
        quant = nested
        facts["quant_nested"] = True
    if isinstance(quant, dict) and "quant_method" not in quant and (quant.get("load_in_4bit") is True or quant.get("load_in_8bit") is True):
        # transformers' BitsAndBytesConfig before it wrote quant_method (Baichuan2-*-Chat-4bits): vLLM reads no method
        quant = {**quant, "quant_method": "bitsandbytes"}
        facts["quant_method_key"] = False
    if isinstance(quant, dict) and isinstance(quant.get("quant_method"), str) and quant["quant_method"]:
        facts["quantized"] = True
        facts["quant_method"] = resolved_method(quant, normalise_quant(quant["quant_method"]))
        facts["quant_source"] = "config"
        scheme = _scheme(quant)
        if scheme:
            facts["quant_scheme"] = scheme
        facts.pop("quant_group_size", None)  # the catalog's; the checkpoint's own follows
        facts.pop("quant_block", None)
        facts.pop("quant_kv_cache", None)
        if _modelopt_fp8_kv(quant):
            facts["quant_kv_cache"] = "fp8"
        facts.pop("quant_kv_scheme", None)
        if facts["quant_method"] == "compressed-tensors":
            # CompressedTensorsConfig.from_config reads kv_cache_scheme as given (None when absent):
            # from 0.24.0 only a declared one refuses fp8_e5m2 (attention.py:177-183, L8)
            facts["quant_kv_scheme"] = quant.get("kv_cache_scheme") is not None
        facts.update(quant_shape(quant))
        # what AWQMarlinConfig.is_awq_marlin_compatible reads: `bits` only (not AutoAWQ's older
        # `w_bit`) and `zero_point`; GPTQMarlinConfig.is_gptq_marlin_compatible also `sym` and
        # `desc_act`; a key the config lacks keeps the plain kernel
        for key, fact, kind in (("bits", "quant_bits", int), ("zero_point", "quant_zero_point", bool),
                                ("sym", "quant_sym", bool), ("desc_act", "quant_desc_act", bool)):
            v = quant.get(key)
            facts.pop(fact, None)
            if isinstance(v, kind) and (kind is bool or not isinstance(v, bool)):
                facts[fact] = v
        facts.pop("quant_packing", None)
        facts.pop("quant_layers_listed", None)
        if facts["quant_method"] in ("auto-round", "inc"):
            # AutoRound's packing decides the kernel family vLLM hands its layers to (AutoRoundConfig /
            # INCConfig.get_quant_method: "gptq" or "awq" in packing_format; auto_round:auto_gptq by default)
            fmt = str(quant.get("packing_format") or "auto_round:auto_gptq").lower()
            facts["quant_packing"] = "gptq" if "gptq" in fmt else "awq" if "awq" in fmt else fmt
            # per-layer bits in extra_config (INCConfig.get_layer_config: exact names, then regex keys; 16+ bits
            # loads unquantized) may keep the gated-delta-net's in_proj_a/in_proj_b in 16 bits, as re-quantizations
            # for TP 2 do: such a config leaves in_proj_ba unjudged (startup_quant_tp.layers)
            extra = quant.get("extra_config")
            if isinstance(extra, dict) and any(isinstance(k, str) and ("in_proj_" in k or set(k) & set("*+?^$()[]{}|\\"))
                                               for k in extra):
                facts["quant_layers_listed"] = True
        # a ModelOpt / compressed-tensors list of 16-bit layers that names an in_proj or a whole Mamba mixer (not
        # only its conv1d, which ModelOpt's defaults leave out): the Mamba2 in_proj's FP4 Marlin tiles are not judged
        if any(_MIXER_KEPT.search(str(e)) for key in ("exclude_modules", "ignore") if isinstance(quant.get(key), list)
               for e in quant[key]):
            facts["quant_layers_listed"] = True
        if "quant_bits" not in facts and quant.get("load_in_8bit") is True:
            facts["quant_bits"] = 8  # BitsAndBytesConfig: LLM.int8() weights, one byte each
        kept = coverage(quant)
        if kept:
            facts["quant_unquantized"] = kept
        facts.pop("quant_ignore_unfused", None)
        if unfused := ignore_unfused(quant):
            facts["quant_ignore_unfused"] = unfused  # L133: a release that cannot map them back quantizes them
        facts.pop("quant_skip_modules", None)
        skips = _skip_modules(quant)
        if skips:
            facts["quant_skip_modules"] = skips
        facts.pop("quant_bnb_skip", None)
        # BitsAndBytes linear layers kept in 16 bits by path ("model.layers.2.mlp"): releases before 0.7.3 match
        # only one-part names ("lm_head", "vision_tower") and quantize these (L133 bnb-skip-modules)
        bnb_skip = [m for m in quant.get("llm_int8_skip_modules") or [] if isinstance(m, str) and "." in m.strip(".")][:200]
        if facts["quant_method"] == "bitsandbytes" and bnb_skip:
            facts["quant_bnb_skip"] = bnb_skip
    elif quant is None:
        facts["quantized"] = False
        facts["quant_source"] = "config"
        for key in _CATALOG_QUANT:  # the catalog's upload was quantized; this checkpoint is not
            facts.pop(key, None)


# what a catalog entry (or a name) says of a quantized upload, void for a checkpoint without quantization_config
_MIXER_KEPT = re.compile(r"in_proj|mixer(?:\.\*|\*)?$|\*mixer\*$")
_CATALOG_QUANT = ("quant_method", "quant_scheme", "quant_block", "quant_group_size", "quant_kv_cache", "quant_unquantized")


def _skip_modules(quant: dict) -> list[str]:
    """The module names AWQ leaves unquantized (modules_to_not_convert, which vLLM matches as a
    substring of each layer's prefix); "*" for a GPTQ `dynamic` rule set, which may leave any out."""
    out = [m for m in quant.get("modules_to_not_convert") or [] if isinstance(m, str) and m][:200]
    if isinstance(quant.get("dynamic"), dict) and quant["dynamic"]:
        out.append("*")
    return out


def quant_shape(quant: dict) -> dict[str, Any]:
    """The granularity a quantization_config splits its weights by, as vLLM reads it: the group
    size of AWQ (`group_size`, AutoAWQ's `q_group_size`), GPTQ and compressed-tensors integer
    weights (-1: one scale per output channel), or the [block_n, block_k] of block-FP8 weights
    (`weight_block_size`; compressed-tensors' `block_structure`)."""
    out: dict[str, Any] = {}
    block = quant.get("weight_block_size")
    groups = quant.get("config_groups")
    if isinstance(groups, dict) and groups:
        blocks: set[tuple[int, ...]] = set()
        sizes: set[int] = set()
        for g in groups.values():
            w = (g or {}).get("weights") or {}
            strategy = str(w.get("strategy") or "").lower()
            if strategy == "block" and _pair(w.get("block_structure")):
                blocks.add(tuple(w["block_structure"]))
            elif strategy == "group" and _dim(w.get("group_size")):
                sizes.add(w["group_size"])
            elif strategy in ("channel", "tensor"):
                sizes.add(-1)
            else:
                return out  # a scheme whose split is not read here: unknown
        if len(blocks) == 1 and not sizes:
            out["quant_block"] = list(blocks.pop())
        elif len(sizes) == 1 and not blocks:
            out["quant_group_size"] = sizes.pop()
        return out
    if isinstance(block, list) and _pair(block):
        out["quant_block"] = list(block)
        return out
    size = quant.get("group_size", quant.get("q_group_size"))
    if isinstance(size, int) and not isinstance(size, bool) and (size == -1 or 0 < size <= 1 << 20):
        out["quant_group_size"] = size
    return out


def _pair(v) -> bool:
    return isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) and not isinstance(x, bool) and 0 < x <= 1 << 16 for x in v)


# the language model's sub-config of a multimodal config.json; vLLM maps llm_config to text_config
_TEXT_KEYS = ("text_config", "llm_config")


def _nested_quant(config: dict) -> dict | None:
    """The quantization_config of the language model's sub-config, when the top level has none."""
    for key in _TEXT_KEYS:
        inner = config.get(key)
        q = inner.get("quantization_config") if isinstance(inner, dict) else None
        if isinstance(q, dict) and isinstance(q.get("quant_method"), str) and q["quant_method"]:
            return q
    return None


def _modelopt_fp8_kv(quant: dict) -> bool:
    """A ModelOpt config's FP8 KV cache as vLLM 0.14.0+ get_kv_cache_quant_algo_string reads it (the
    scheme first, then kv_cache_quant_algo; at the top level or under `quantization`)."""
    if not str(quant.get("quant_method", "")).lower().startswith("modelopt"):
        return False
    nested = quant.get("quantization")
    inner: dict = nested if isinstance(nested, dict) else quant
    algo = (inner.get("kv_cache_scheme") or quant.get("kv_cache_scheme") or inner.get("kv_cache_quant_algo")
            or quant.get("kv_cache_quant_algo"))
    if isinstance(algo, dict):
        return algo.get("dynamic") is False and algo.get("num_bits") == 8 and algo.get("type") == "float"
    return isinstance(algo, str) and algo.lower() == "fp8"


def _scheme(quant: dict) -> str | None:
    """A compressed-tensors checkpoint's weight scheme: fp8, wna16 (4/8-bit integer weights,
    16-bit activations), w8a8_int8, or nvfp4 / mxfp4 (4-bit float weights with an FP8 scale per 16
    values, or an 8-bit exponent per 32: llm-compressor's NVFP4 / NVFP4A16 and MXFP4 presets)."""
    if normalise_quant(quant.get("quant_method", "")) != "compressed-tensors":
        return None
    groups = quant.get("config_groups")
    if not isinstance(groups, dict) or not groups:
        return None
    kinds = set()
    for g in groups.values():
        w = (g or {}).get("weights") or {}
        a = (g or {}).get("input_activations")
        if w.get("type") == "float" and w.get("num_bits") == 8:
            kinds.add("fp8")
        elif w.get("type") == "int" and not a:
            kinds.add("wna16")
        elif w.get("type") == "int" and w.get("num_bits") == 8 and isinstance(a, dict) and a.get("type") == "int":
            kinds.add("w8a8_int8")
        elif w.get("type") == "float" and w.get("num_bits") == 4 and w.get("group_size") in (16, 32):
            kinds.add("nvfp4" if w["group_size"] == 16 else "mxfp4")
        else:
            return None
    return kinds.pop() if len(kinds) == 1 else None
