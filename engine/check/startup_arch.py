"""Whether the vLLM release knows the checkpoint's architecture (config.json "architectures"),
from knowledge/vllm/architectures.yaml (tools/vllm_architectures.py scans each release's model
registry). vLLM resolves the architecture while it builds the ModelConfig — before any GPU is
touched — and raises "Model architectures [...] are not supported for now" (or "... was supported
in vLLM until vX") when no implementation exists. From 0.7.2 an architecture vLLM lacks falls back
to the Transformers backend when the installed transformers has a compatible class (text models;
multimodal ones from 0.10.0), so there it is a warning, not a certainty."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.kb.versions import Version, in_spans, parse, try_parse

# the Transformers-backend fallback for an architecture vLLM does not implement
# (vllm/model_executor/model_loader/utils.py resolve_transformers_fallback in 0.7.2;
# TransformersForMultimodalLM in vllm/model_executor/models/registry.py from 0.10.0)
FALLBACK_TEXT = "0.7.2"
FALLBACK_MULTIMODAL = "0.10.0"
# the first release whose loader says "Cannot find model module" for a class transformers lacks;
# before it (from 0.7.2) it says "... has no vLLM implementation and the Transformers implementation ..."
FALLBACK_WORDS_UNTIL = "0.8.5"
# the backend's class implements SupportsLoRA from 0.8.0 (models/transformers.py `class
# TransformersModel(nn.Module, SupportsQuant, SupportsLoRA)`); in 0.7.2-0.7.3 the model runner
# stops a LoRA launch on it: "TransformersModel does not support LoRA yet."
FALLBACK_LORA = "0.8.0"
# "Model architecture X was supported in vLLM until vU" (registry.py _raise_for_unsupported)
REMOVED_MESSAGE = "0.10.1"
# _PP_SUPPORTED_MODELS, a list of names (vllm/config.py ModelConfig.verify_with_parallel_config,
# 0.5.1-0.6.2); from 0.6.3 the check asks the resolved model class (SupportsPP)
PP_LIST_UNTIL = "0.6.3"


# From 0.10.1 an architecture with one of these suffixes resolves to a registered one with another
# (Qwen2ForSequenceClassification → Qwen2ForCausalLM converted to a classifier): ModelRegistry.
# _normalize_arch with _SUFFIX_TO_DEFAULTS (vllm/config/__init__.py, later vllm/config/model.py).
NORMALIZE_SUFFIXES = "0.10.1"
SUFFIXES = ("ForCausalLM", "ForConditionalGeneration", "ChatModel", "LMHeadModel", "ForTextEncoding",
            "EmbeddingModel", "ForSequenceClassification", "ForAudioClassification", "ForImageClassification",
            "ForVideoClassification", "ForTokenClassification", "ClassificationModel", "ForRewardModeling",
            "RewardModel", "Model")


# config_format=mistral (the argument exists from 0.6.1): vLLM builds the config from the
# checkpoint's params.json, not its config.json (transformers_utils/config.py load_params_config,
# 0.6.1-0.9.x; transformers_utils/configs/mistral.py from 0.10.0): a vision encoder makes it
# PixtralForConditionalGeneration, a dense text model MistralForCausalLM — whatever class its
# config.json names (Mistral Small 3.1: Mistral3ForConditionalGeneration)
MISTRAL_FORMAT_FAMILIES = ("mistral", "pixtral")


def mistral_format(model: dict, engine: dict) -> dict:
    """The model as vLLM reads it under `config_format` (the class params.json makes)."""
    fmt = engine.get("config_format")
    if not isinstance(fmt, str) or fmt.lower() != "mistral" or model.get("family") not in MISTRAL_FORMAT_FAMILIES \
            or model.get("moe") or model.get("multimodal") is None:
        return model
    arch = "PixtralForConditionalGeneration" if model["multimodal"] else "MistralForCausalLM"
    return {**model, "architecture": arch}


def _known(spans: list[list[str]], releases: list[Version], v: Version) -> bool | None:
    """Whether release `v` is inside `spans`; between two scanned releases only where both agree,
    before the first scanned or after the last (when absent there) unknown."""
    if v in releases:
        return in_spans(v, spans)
    before = [r for r in releases if r < v]
    after = [r for r in releases if r > v]
    if not before:
        return None
    if not after:
        return True if in_spans(before[-1], spans) else None
    a, b = in_spans(before[-1], spans), in_spans(after[0], spans)
    return a if a == b else None


def _registered(table: dict, arch: str, releases: list[Version], v: Version) -> bool | None:
    spans = table["registered"].get(arch)
    if spans:
        return _known(spans, releases, v)
    return False if releases[0] <= v <= releases[-1] else None


def registers(table: dict, arch: str, version: str) -> bool | None:
    """Whether release `version` registers `arch` itself (None: not known)."""
    v = try_parse(version)
    if v is None or not table.get("releases"):
        return None
    return _registered(table, arch, [parse(r) for r in table["releases"]], v)


# the fallback's model class for an architecture transformers lacks: the checkpoint's code under the
# auto_map key "AutoModel" (model_loader/utils.py 0.7.2-0.10.0), any "AutoModel…" key from 0.10.1
# (models/registry.py _try_resolve_transformers); none there and vLLM raises
AUTO_MODEL_PREFIX = "0.10.1"


def _custom_code_without_model(model: dict, v: Version, tf: dict | None) -> bool:
    """transformers has no class named like the architecture (in the wheels
    tools/transformers_classes.py read, and no later transformers added the model_type) and the
    checkpoint's auto_map (read from its config.json) names no model class the release's fallback
    takes: no module to run, so vLLM raises whatever trust_remote_code says."""
    keys, arch = model.get("auto_map"), model.get("architecture")
    if not isinstance(keys, list) or not tf or arch in tf["classes"]:
        return False
    newest = max(Version(x) for x in tf["scanned"])
    since = tf["first"].get(model.get("model_type") or "")
    if since and Version(since) > newest:
        return False  # a transformers newer than the wheels read maps the model type: its classes are not listed
    if v >= Version(AUTO_MODEL_PREFIX):
        return not any(k.startswith("AutoModel") for k in keys)
    return "AutoModel" not in keys


def arch_facts(model: dict, table: dict, version: str | None, tf: dict | None = None) -> dict[str, Any]:
    arch = model.get("architecture")
    v = try_parse(version) if version else None
    if not isinstance(arch, str) or not arch or v is None or not table:
        return {}
    releases = [parse(r) for r in table["releases"]]
    out: dict[str, Any] = {"arch": arch}
    if model.get("registered_by"):
        # the project registers the class itself (ModelRegistry.register_model): vLLM resolves it there
        return {**out, "arch_registered": True, "arch_project": model["registered_by"]}
    spans = table["registered"].get(arch)
    known = _registered(table, arch, releases, v)
    if known is False and v >= Version(NORMALIZE_SUFFIXES):
        suffix = next((x for x in SUFFIXES if arch.endswith(x)), None)
        if suffix:
            bases = [_registered(table, arch[: -len(suffix)] + r, releases, v) for r in SUFFIXES if r != suffix]
            known = True if True in bases else (None if None in bases else False)
    if known is None:
        return out
    if not known and model.get("plugin_code"):
        # the project loads code into vLLM that may register it (engine/scan/registered_models.py)
        return {**out, "arch_plugin": model["plugin_code"]}
    if not known and model.get("architecture_from") == "vllm-tests":
        # the class vLLM's tests load a checkpoint as may not be what its config.json said in an
        # older release (BAAI/bge-m3: XLMRobertaModel, BgeM3EmbeddingModel from 0.16.0): no refusal on it
        return {}
    out["arch_registered"] = known
    if known:
        out.update(_pp(table, arch, releases, v))
        out.update(_per_class(table, "lora", arch, releases, v))
        out.update(_quant(table, arch, releases, v))
        return out
    if v < Version(PP_LIST_UNTIL):
        # the allow-list is checked on the name while the config is built, before any model class
        # is looked up: an architecture the release does not register meets it first
        out.update(_pp(table, arch, releases, v))
    removed = table["removed"].get(arch)
    if removed and v >= Version(REMOVED_MESSAGE) and _known(removed["listed"], releases, v):
        out["arch_removed_until"] = removed["until"]
        out["arch_removed_pin"] = "<=" + removed["until"]
    multimodal = model.get("multimodal")
    until = model.get("transformers_fallback_until")
    no_backend = model.get("transformers_fallback") is False and (not until or v < Version(str(until)))
    if v < Version(FALLBACK_TEXT) or no_backend:
        # no fallback before 0.7.2; none for a class transformers lacks and no auto_map names
        # (registry.py _try_resolve_transformers returns None: 0.13.0 line 866-881), or whose
        # remote code the release's gate refuses (up to `transformers_fallback_until`, where it changes)
        out["arch_fallback"] = "none"
    elif v < Version(FALLBACK_MULTIMODAL):
        out["arch_fallback"] = "text" if multimodal is False else ("none" if multimodal else "unknown")
    else:
        out["arch_fallback"] = "transformers"
    if out["arch_fallback"] != "none" and _custom_code_without_model(model, v, tf):
        out["arch_fallback"] = "none"
        out["arch_custom_no_model"] = True
    if out["arch_fallback"] == "unknown":
        del out["arch_fallback"]
    if out.get("arch_fallback") == "none" and Version(FALLBACK_TEXT) <= v < Version(FALLBACK_WORDS_UNTIL):
        # 0.7.2-0.8.4 hand every unregistered name to the Transformers fallback (registry.py
        # _normalize_archs), whose loader refuses it in its own words (0.7.3 model_loader/utils.py:76)
        out["arch_fallback_refused"] = True
    if multimodal and not out.get("arch_registered") and Version(FALLBACK_TEXT) <= v < Version(FALLBACK_MULTIMODAL):
        # 0.7.2-0.9.x map the unknown multimodal name to the backend's text class (TransformersModel,
        # TransformersForCausalLM from 0.8.3), which ModelConfig then finds is no multimodal model:
        # a limit_mm_per_prompt stops it there ("… is only supported for multimodal models", config.py 0.8.5:590)
        out["arch_mm_as_text"] = True
    if out.get("arch_fallback") in ("text", "transformers") and v < Version(FALLBACK_LORA):
        # whether the fallback loads or not, a LoRA launch of it stops
        out.update({"arch_lora": False, "arch_lora_via": "TransformersModel", "arch_lora_since": FALLBACK_LORA,
                    "arch_lora_pin": ">=" + FALLBACK_LORA})
    # the first release that registers it, for the fix
    later = [Version(a) for a, _ in (spans or []) if Version(a) > v]
    if later:
        out["arch_since"] = str(min(later))
        out["arch_pin"] = ">=" + out["arch_since"]
    return out


def _quant(table: dict, arch: str, releases: list[Version], v: Version) -> dict[str, Any]:
    """`arch_quant`: whether the release's get_model accepts --quantization for the architecture's
    class (model_loader.py _MODEL_CLASSES_SUPPORT_QUANTIZATION, 0.2.0–0.2.1.post1: "Quantization is
    not supported for <class>."), and `arch_quant_pin`, the first release that takes it for every
    class. Absent outside those releases."""
    start, until = table.get("quant_from"), table.get("quant_until")
    if not start or not until or "quant" not in table:
        return {}
    base = Version(v.public)  # a .postN release patches its base; the loader's list is the base's
    if not Version(start) <= base <= Version(until):
        return {}
    later = [r for r in releases if r > Version(until)]
    out: dict[str, Any] = {"arch_quant": in_spans(base, table["quant"].get(arch) or [])}
    if not out["arch_quant"] and later:
        out["arch_quant_since"] = str(later[0])
        out["arch_quant_pin"] = ">=" + str(later[0])
    return out


def _pp(table: dict, arch: str, releases: list[Version], v: Version) -> dict[str, Any]:
    """Whether the release runs the (registered) architecture with pipeline parallelism
    (ModelConfig.verify_with_parallel_config raises otherwise): `arch_pp`, and the first scanned
    release after `v` that does (`arch_pp_since`, `arch_pp_pin`). Absent when the table cannot tell."""
    return _per_class(table, "pp", arch, releases, v)


def _per_class(table: dict, key: str, arch: str, releases: list[Version], v: Version) -> dict[str, Any]:
    """`arch_<key>`: whether the release's class for the architecture implements the interface
    (`pp`: SupportsPP; `lora`: SupportsLoRA — the model runner raises "… does not support LoRA
    yet." when LoRA is enabled without it), and the first scanned release after `v` that does
    (`arch_<key>_since`, `arch_<key>_pin`). Absent when the table cannot tell."""
    start = table.get(key + "_from")
    if not start or v < Version(start) or key not in table:
        return {}
    scanned = [r for r in releases if r >= parse(start)]
    if key == "lora" and v not in scanned and Version(v.public) in scanned:
        v = Version(v.public)  # a .postN release patches its base; the model classes are the base's
    if _known(table.get(key + "_unresolved", {}).get(arch) or [], scanned, v) is not False:
        return {}
    spans = table[key].get(arch) or []
    got = _known(spans, scanned, v) if spans else (False if scanned[0] <= v <= scanned[-1] else None)
    if got is None:
        return {}
    out: dict[str, Any] = {f"arch_{key}": got}
    later = [Version(a) for a, _ in spans if Version(a) > v]
    if not got and later:
        out[f"arch_{key}_since"] = str(min(later))
        out[f"arch_{key}_pin"] = ">=" + out[f"arch_{key}_since"]
    return out
