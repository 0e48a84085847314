"""A checkpoint whose config.json names no architectures (DeepSeek-VL2 keeps its class only under
language_config): vLLM's ModelConfig hands hf_config.architectures — None — to the model registry,
which loops over it (TypeError, 0.7.0-0.10.0) or raises "No model architectures are specified"
(0.10.1+), before any GPU is touched. hf_overrides {"architectures": [...]} is the documented way
round it. Which model types vLLM's own config class fills in, and from which release transformers'
mapping may, is knowledge/vllm/no_architectures.yaml (check L290)."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.check.json_arg import UNREADABLE, json_arg
from vllm_kb.engine.kb.versions import Version, contains, try_parse


def _overridden(engine: dict) -> bool:
    """Whether hf_overrides may give the config its architectures (a key of that name, or a value the
    audit cannot read: a function, a string that is not JSON)."""
    if "hf_overrides" not in engine or engine.get("hf_overrides") is None:
        return False
    over = json_arg(engine.get("hf_overrides"))
    if over is UNREADABLE or not isinstance(over, dict):
        return True
    return "architectures" in over


def no_arch_facts(model: dict, engine: dict, table: dict, version: str | None) -> dict[str, Any]:
    if model.get("config_architectures") is not False or not table or _overridden(engine):
        return {}
    if "gguf" in (model.get("weight_formats") or []) or engine.get("load_format") == "gguf" \
            or str(model.get("name") or "").lower().endswith(".gguf"):
        return {}  # vLLM takes a GGUF file's class from its header's architecture
    if str(engine.get("config_format") or "").lower() == "mistral":
        return {}  # params.json, not config.json, gives the class
    v = try_parse(str(version).partition("+")[0]) if version else None
    if v is None:
        return {}
    kind = model.get("model_type")
    fill = (table.get("fills") or {}).get(kind) if isinstance(kind, str) else None
    if fill and v >= Version(fill["since"]):
        return {}
    checked = (table.get("checked") or {}).get(kind) if isinstance(kind, str) else None
    out: dict[str, Any] = {}
    if checked and v >= Version(checked["since"]):
        out["no_arch"] = "refused"
    elif v >= Version(table["mapped_from"]):
        out["no_arch"] = "maybe"  # transformers' MODEL_MAPPING_NAMES, or a config class not read here, may fill it
    else:
        out["no_arch"] = "maybe"  # a config class of vLLM not read here may fill it
    words = next((e["words"] for e in table.get("errors") or [] if contains(e["vllm"], str(v))), None)
    if words:
        out["no_arch_words"] = words
    arch = model.get("architecture")
    if isinstance(arch, str) and arch and model.get("architecture_from") is None:
        out["no_arch_class"] = arch
    if fill:
        out["no_arch_fills"] = fill["since"]
    return out
