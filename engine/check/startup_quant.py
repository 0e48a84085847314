"""The quantization part of the `startup` facts: which method vLLM will run (the `quantization`
argument as vLLM lower-cases it, else the checkpoint's quant_method), whether the release knows
it, whether the argument and the checkpoint disagree in a way vLLM refuses, the compute capability
the method (or a compressed-tensors checkpoint's scheme) needs in that release, and the first
release whose need the GPU meets."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.check.site_platform import plugin_quantizations
from vllm_kb.engine.check.startup_common import since
from vllm_kb.engine.kb.catalog import Catalog
from vllm_kb.engine.kb.model_resolve import is_local
from vllm_kb.engine.kb.quant_config import normalise_quant
from vllm_kb.engine.kb.versions import SpecifierSet, Version, try_parse

# Checkpoint methods a name marker names without doubt (FP8, INT4, W8A8 names hide several formats);
# the publisher- and tool-specific markers of models.yaml (NVIDIA's ModelOpt uploads, Meta's
# fbgemm 405B, llm-compressor's scheme names) name one format too. A method only guessed from a
# name (a bare "-FP8") never makes L7 a P0: the checkpoint's quantization_config may say another.
CERTAIN_FROM_NAME = frozenset({"awq", "gptq", "gguf", "marlin", "modelopt", "modelopt_fp4", "fbgemm_fp8",
                               "compressed-tensors"})
# Names two export formats share (method, scheme of the name marker → the other format): "-AWQ" is
# AutoAWQ's format (quant_method awq) or llm-compressor's AWQModifier export, saved as compressed-tensors
# W4A16 (vllm-project/llm-compressor#1909, #2096); "-quantized.w8a16" / "-quantized.w4a16" is
# llm-compressor's compressed-tensors W*A16 or, for Neural Magic's AutoGPTQ uploads of 2024, quant_method
# gptq (vllm-project/vllm#11577 served neuralmagic/Mistral-7B-Instruct-v0.3-quantized.w8a16 with
# --quantization gptq on 0.6.x, which a compressed-tensors config refuses)
_NAME_TWO_FORMATS: dict[tuple[str | None, str | None], tuple[str, str | None]] = {
    ("awq", None): ("compressed-tensors", "wna16"),
    # "-GPTQ" is AutoGPTQ/GPTQModel's format (quant_method gptq) or llm-compressor's GPTQModifier
    # export, saved as compressed-tensors W4A16 (llm-compressor#2096: every algorithm is written as
    # quant_method compressed-tensors; ISTA-DASLab's "-GPTQ-4b-128g" uploads, vllm#14040)
    ("gptq", None): ("compressed-tensors", "wna16"),
    ("compressed-tensors", "wna16"): ("gptq", None),
}
# owners whose "-GPTQ" uploads are AutoGPTQ's format, not llm-compressor's export: TheBloke's (2023,
# before llm-compressor existed) and Qwen's own "-GPTQ-Int4/-Int8" (quant_method gptq in their config.json)
_GPTQ_FORMAT_OWNERS = frozenset({"thebloke", "qwen"})
# a name that says bitsandbytes without doubt ("-bnb-4bit", "bitsandbytes"); a bare "4bit" does not
_BNB_NAME = re.compile(r"(?i)(?<![a-z])bnb(?![a-z])|bitsandbytes")
# ModelConfig._verify_quantization reads the text config's quantization_config too from 0.10.2
# (vllm/config/__init__.py 1140-1144); before, only hf_config.quantization_config (0.10.1 line 1098)
NESTED_READ = "0.10.2"
# the first release that takes a quantization_config without quant_method as no quantization
# (vllm/config/model.py:948 `quant_method if quant_method != "" else None`); earlier ones raise
UNNAMED_AS_NONE = "0.11.0"
# the first release with a BitsAndBytes quantization method (vllm/model_executor/layers/quantization/__init__.py)
BNB_FROM = "0.5.0"
# the first whose BitsAndBytesConfig takes a checkpoint's own quantization_config (0.5.0-0.5.3 ask it
# for a QLoRA adapter_name_or_path: vllm/model_executor/layers/quantization/bitsandbytes.py:52)
BNB_PREQUANT_FROM = "0.5.4"
# CLI syntaxes whose values go through vLLM's argparse (choices were case-sensitive up to 0.12).
_ARGV = frozenset({"cli", "yaml-config", "compose", "k8s-args", "helm-values", "dockerfile", "vscode-launch"})


def ranged(rows: list[dict], version: str) -> int | None:
    for r in rows:
        if SpecifierSet(r["vllm"]).contains(version):
            return int(r["value"])
    return None


def min_capability(table: dict, method: str | None, scheme: str | None, version: str) -> int | None:
    q = table["quantization"]
    if method == "compressed-tensors" and scheme in q["scheme_min_capability"]:
        return ranged(q["scheme_min_capability"][scheme], version)
    rows = q["min_capability"].get(method)
    need = ranged(rows, version) if rows else None
    if method == "compressed-tensors" and need is not None:
        # the scheme is not known: every layer's scheme needs at least the lowest of them all
        floor = ranged(q["scheme_min_capability"].get("any") or [], version)
        need = max(need, floor) if floor is not None else need
    return need


def known_methods(cat: Catalog, version: str) -> list[str] | None:
    got = cat.allowed_values(("quantization",), version)
    return [str(v) for v in got[0]] if got and got[0] else None


def quant_facts(facts: dict, table: dict, cat: Catalog, version: str) -> dict[str, Any]:
    model, engine, args = facts.get("model") or {}, facts.get("engine") or {}, facts.get("args") or {}
    gpu = facts.get("gpu") or {}
    flag = engine.get("quantization")
    flag = str(flag).strip() if isinstance(flag, str) and flag.strip() else None
    if flag is not None and normalise_quant(flag) == "none":
        # the string "None" (a Hydra or YAML value; null is spelt `null` there): vLLM's command line reads
        # it as no method (nullable_str 0.4.2+, optional_type), the Python API raises "Unknown quantization
        # method: none"; never a pre-quantized method whose config file is missing, and not this module's
        # "none" for unquantized weights, so nothing is judged from it
        return {}
    ckpt = normalise_quant(model["quant_method"]) if model.get("quantized") and model.get("quant_method") else None
    source = model.get("quant_source")
    nested_guess = None
    if ckpt and not flag and model.get("quant_nested") and not since(version, NESTED_READ):
        if source == "config" or model.get("quant_nested_known"):
            # ModelConfig reads hf_config.quantization_config only: the weights load as 16-bit ones
            return {"quant_method": "none", "quant_nested_unread": ckpt}
        # only the catalog's guess from the name: an upload of the same family may keep its config at the
        # top level, where vLLM reads it (vLLM #11601: InternVL2_5-78B-MPO-AWQ on 0.6.6 built AWQ layers),
        # so the checkpoint's method is judged as read and L23 only warns
        nested_guess = ckpt
    if not flag and not ckpt:
        return {"quant_method": "none"} if model.get("quant_source") == "config" or model.get("family") else {}
    method = normalise_quant(flag) if flag else ckpt
    if model.get("quant_method_key") is False and ckpt and since(version, "0.2.2") and not since(version, UNNAMED_AS_NONE):
        # ModelConfig._verify_quantization (from 0.2.2, the first to read the checkpoint's config) reads
        # quant_cfg["quant_method"] (KeyError up to 0.4.0), then .get("quant_method", "") (0.4.1-0.10):
        # "" matches no method nor the argument; 0.11 takes "" as unquantized
        return {"quant_method": method, "quant_from": "config", "quant_certain": True, "quant_unnamed": True}
    out: dict[str, Any] = {"quant_method": method, "quant_from": "argument" if flag else (source or "name")}
    if nested_guess:
        out["quant_nested_guess"] = nested_guess
    known = _before_catalog(table, (facts.get("vllm") or {}).get("version"), cat) or known_methods(cat, version)
    renamed = (table["quantization"].get("checkpoint_renamed") or {}).get(method)
    if known is not None and method and renamed and not flag and since(version, renamed["from"]) and renamed["to"] in known:
        known = [*known, method]  # the checkpoint's name, which the release's override maps to one it knows
    if known is not None:
        out["quant_known"] = method in known
        if method not in known:
            # a method other releases know (not a misspelling): L10 says which releases take it
            seen = cat.value_history(("quantization",), method)
            if seen and flag:
                out["quant_known_first"], out["quant_known_last"] = seen[0], seen[-1]
            pin = _later_pin(seen, cat, version)
            if pin and method == "bitsandbytes" and not flag and pin.startswith(">=" + BNB_FROM + ","):
                # a checkpoint saved quantized: BitsAndBytesConfig reads it from 0.5.4 (L20)
                pin = ">=" + BNB_PREQUANT_FROM + pin[len(">=" + BNB_FROM):]
            if pin:
                out["quant_known_pin"] = pin
    if flag and flag != flag.lower() and _argv(facts) and not since(version, "0.13.0"):
        out["quant_upper_cli"] = True
        out["quant_lower"] = flag.lower()
    sure = source in ("config", "catalog") or (source == "name" and (ckpt in CERTAIN_FROM_NAME or _bnb_named(model, version)))
    # a name two export formats share: either may be behind it (_NAME_TWO_FORMATS)
    alt_fmt = _NAME_TWO_FORMATS.get((ckpt, model.get("quant_scheme") if ckpt == "compressed-tensors" else None)) if source == "name" else None
    if ckpt == "gptq" and str(model.get("name") or "").split("/", 1)[0].lower() in _GPTQ_FORMAT_OWNERS:
        alt_fmt = None
    # the method the checks judge is the one vLLM will use: the flag, else the checkpoint's — certain
    # only from its config, the catalog or an unambiguous name marker
    out["quant_certain"] = bool(flag) or sure
    if alt_fmt and known is not None and not flag and ckpt not in known and alt_fmt[0] in known:
        out["quant_certain"] = False  # the release does not know the named format but may load the other
    accepted = table["quantization"]["accepted"].get(ckpt or "")
    accepted_in = (table["quantization"].get("accepted_in") or {}).get(method)
    if accepted is not None and accepted_in and method != ckpt and not any(SpecifierSet(s).contains(version) for s in accepted_in):
        accepted = [m for m in accepted if m != method]
    # a quantization a wrapper derives from its own keyword comes with its own pick of checkpoint:
    # Unsloth's load_in_4bit swaps the model for its pre-quantized bitsandbytes variant where its
    # mapper has one (unsloth 2025.10.1 models/loader.py:196-197 get_model_name, models/mapper.py),
    # so the named model's method is not the one vLLM compares the argument with
    implied = bool((facts.get("site") or {}).get("quant_implied"))
    if flag and ckpt and sure and accepted is not None and not implied and alt_fmt is None:
        out["quant_checkpoint"] = ckpt
        out["quant_mismatch"] = method != ckpt and method not in accepted
        # the argument's own override comes first (humming heads the overrides list): it takes the
        # checkpoint, or refuses it with an error of its own that is no mismatch
        argued = _argument_claims(table["quantization"], method, ckpt, model, facts, version) if out["quant_mismatch"] else None
        if argued is False:
            out.pop("quant_mismatch")
        elif argued:
            out.update(quant_mismatch=False, quant_claimed=True)
        claims = (table["quantization"].get("claims_any_from") or {}).get(ckpt)
        types = (table["quantization"].get("claims_any_model_types") or {}).get(ckpt)
        if types is not None and model.get("model_type") not in types:
            claims = None
        if out.get("quant_mismatch") and claims and since(version, claims):
            # the checkpoint's own override replaces whatever was asked (startup.yaml claims_any_from);
            # a value the release does not know reaches it unless argparse's choices (up to 0.12) stop it
            out["quant_mismatch"] = False
            out["quant_claimed"] = known is None or method in known or not (_argv(facts) and not since(version, "0.13.0"))
    if flag and method in plugin_quantizations((facts.get("site") or {}).get("platform")):
        # the platform's plugin registers the method and its override claims any checkpoint there
        # (vllm-ascend's AscendQuantConfig on an NPU): vLLM's own list and the checkpoint's method do not decide
        out.update(quant_known=True, quant_claimed=True, quant_mismatch=False)
        out.pop("quant_known_pin", None)
    maybe = (table["quantization"].get("name_may_be_claimed") or {}).get(ckpt or "")
    if flag and ckpt and source == "name" and known is not None and method not in known and maybe \
            and since(version, (table["quantization"].get("claims_any_from") or {}).get(maybe, "99")) \
            and not (_argv(facts) and not since(version, "0.13.0")):
        out["quant_maybe_claimed"] = maybe
    plain = "exact" if source == "config" else model.get("unquantized")  # what says the weights are not quantized
    if flag and not model.get("quantized") and plain and not implied:
        # a method a framework derives from its own keys comes with the quantization_config it builds
        # (NeMo-RL's real_quant: a ModelOpt NVFP4 one through hf_overrides), not from the checkpoint's files
        out.update(_needs_file(table["quantization"], method, version, plain, source, model.get("checkpoint_json")))
    if flag and not ckpt and method in table["quantization"]["online"]:
        out["quant_online"] = True  # quantized while loading: without the argument the 16-bit weights load as they are
    scheme = model.get("quant_scheme") if method == ckpt else None
    need = min_capability(table, method, scheme, version)
    cc = gpu.get("compute_capability")
    floor = method == "compressed-tensors" and scheme not in table["quantization"]["scheme_min_capability"]
    if need is not None:
        out["quant_min_capability"] = need
        if floor:
            out["quant_scheme_floor"] = True
        if cc is not None:
            out["quant_gpu_ok"] = round(cc * 10) >= need
            alt = min_capability(table, alt_fmt[0], alt_fmt[1], version) if alt_fmt and method == ckpt else None
            if alt is not None and (round(cc * 10) >= alt) != out["quant_gpu_ok"]:
                out["quant_certain"] = False  # the two formats' kernels disagree on this GPU
                if out["quant_gpu_ok"] and ckpt in ("awq", "gptq"):  # AutoAWQ's/AutoGPTQ's runs, the compressed-tensors export does not
                    out.update(quant_gpu_ok=False, quant_alt_method="compressed-tensors", quant_min_capability=alt)
            if not out["quant_gpu_ok"] and not floor:  # an unknown scheme: no release is known to run it
                later = _first_release_ok(table, cat, method, model.get("quant_scheme"), round(cc * 10), version)
                if later:
                    out["quant_ok_from"] = later
    name = str(model.get("name") or "")
    if ckpt == "bitsandbytes" and (source in ("config", "catalog") or _BNB_NAME.search(name)):
        # a checkpoint saved quantized (quantization_config bitsandbytes): the loader's pre_quant. A folder
        # is whatever the project put there (a QLoRA run merged back to 16 bits keeps its "-bnb" name):
        # only its own config.json says so, its name (or the Hub upload it resembles) only suggests it
        local = bool(name) and is_local(name) and source != "config"
        out["quant_bnb_prequant_named" if local else "quant_bnb_prequant"] = True
    for row in table["quantization"]["deprecated"]:
        if SpecifierSet(row["vllm"]).contains(version):
            out["quant_deprecated"] = method in row["methods"] and not engine.get("allow_deprecated_quantization")
    return out


def _needs_file(q: dict, method: str | None, version: str, plain: str, source: str | None, listing: list | None) -> dict:
    """Whether get_quant_config raises "Cannot find the config file" for a checkpoint whose config.json
    has no quantization_config: only for a method that names config files (startup.yaml config_files),
    and only where no *.json of the checkpoint ends with one of them — known for a folder of the
    project; a config read from the Hub cache lists no files (P1), a catalogued name reads as its upload."""
    if method in q["online"]:
        return {"quant_needs_file": False}
    row = (q.get("config_files") or {}).get(method)
    if not row or ("vllm" in row and not SpecifierSet(row["vllm"]).contains(version)):
        return {}  # vLLM builds the method's config without a file: no such refusal
    if listing is not None and any(str(n).endswith(f) for n in listing for f in row["files"]):
        return {"quant_needs_file": False}  # a file beside config.json that vLLM takes instead
    if plain == "exact" and (source != "config" or listing is not None):
        return {"quant_needs_file": True}
    if plain == "exact":
        return {"quant_needs_file_unlisted": True}
    return {"quant_needs_file_likely": True}  # a family's name without a quantization marker


def _argument_claims(q: dict, method: str | None, ckpt: str, model: dict, facts: dict, version: str) -> bool | None:
    """Whether vLLM's overrides take the checkpoint for this --quantization although the two differ
    (startup.yaml argument_claims_any, platform_claims): True where they do, False where the
    argument's override refuses the checkpoint with its own error, None where the mismatch stands."""
    platform = str((facts.get("site") or {}).get("platform") or "")
    if ckpt in (q.get("platform_claims") or {}).get(platform, ()):
        return True
    spec = (q.get("argument_claims_any") or {}).get(method)
    if not spec or not SpecifierSet(spec).contains(version):
        return None
    refused = (q.get("argument_claims_refused") or {}).get(method)
    if refused and SpecifierSet(refused["vllm"]).contains(version) and ckpt == refused["checkpoint"] \
            and model.get("model_type") in refused["model_types"]:
        return False
    return True


def _bnb_named(model: dict, version: str) -> bool:
    """A bitsandbytes checkpoint read from its name, taken as certain: "bnb" / "bitsandbytes" say it
    without doubt (Unsloth's `-bnb-4bit` uploads); a bare "4bit" only on a release older than
    BNB_FROM, whose 4-bit formats (AWQ, GPTQ, SqueezeLLM, Marlin) all carry their own name
    markers (matched before it), so whatever such an upload holds, that release has no loader for it.
    MLX uploads ("mlx-community/…-4bit") are no checkpoint vLLM loads at all: left out."""
    if model.get("quant_method") != "bitsandbytes":
        return False
    name = str(model.get("name") or "")
    if _BNB_NAME.search(name):
        return True
    return not since(version, BNB_FROM) and "mlx" not in name.lower()


def _later_pin(seen: list[str], cat: Catalog, version: str) -> str | None:
    """The pin that makes the method known: `>=first` when the newest release still knows it,
    `>=first,<=last` for a method a later release dropped (BitsAndBytes after 0.27, GGUF after 0.23);
    None for a release inside that span (a method known then, not a misspelling) or without one."""
    v = try_parse(version)
    if not seen or v is None or not cat.versions:
        return None
    first, last = Version(seen[0]), Version(seen[-1])
    if first <= v <= last:
        return None
    return ">=" + seen[0] if seen[-1] == str(cat.versions[-1]) else f">={seen[0]},<={seen[-1]}"


def _before_catalog(table: dict, real: str | None, cat: Catalog) -> list[str] | None:
    """The methods a release older than the catalog's first accepts (startup.yaml
    methods_before_catalog), when the site pins one; None otherwise."""
    v = try_parse(str(real)) if real else None
    if v is None or not cat.versions or not v < cat.versions[0]:
        return None
    for row in table["quantization"].get("methods_before_catalog") or []:
        if SpecifierSet(row["vllm"]).contains(str(v)):
            return list(row["methods"])
    return None


def _argv(facts: dict) -> bool:
    site = facts.get("site") or {}
    return site.get("syntax") in _ARGV


def _first_release_ok(table: dict, cat: Catalog, method: str | None, scheme: str | None, cc: int, version: str) -> str | None:
    """The first catalogued release after `version` that knows `method` and whose minimum the GPU meets."""
    here = try_parse(version)
    for v in cat.versions:
        if here is not None and not v > here:
            continue
        need = min_capability(table, method, scheme, str(v))
        known = known_methods(cat, str(v))
        if need is not None and need <= cc and (known is None or method in known):
            return str(v)
    return None
