"""JSON Schemas from schema/, with cross-file $refs resolved, and errors rendered as a path to
the bad value plus a plain message (`rules[1].fix[0].value: expected number, got 'high'`)."""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Iterator

from vllm_kb.engine.kb import resources

SCHEMA_FILES = ("common", "checks", "facts", "categories", "manifest", "gpus", "models", "i18n",
                "effective_defaults", "renames", "framework", "triggers", "catalog", "report",
                "decision_tree", "scenarios", "tables", "compat", "framework_catalog", "startup", "architectures", "bnb_support", "model_versions", "vision_tp", "example_models", "arch_names", "entrypoints", "kv_cache", "attention_refusals", "attn_selector", "model_kernels", "paged_head_sizes", "cuda_builds", "dependency_pins", "raise_order", "vocab_padding", "lora_vocab", "lora_moe", "eplb_moe", "gguf", "gguf_loader", "cli_choices",
                "plugins", "engine_kwargs", "vllm_imports", "vllm_uses", "vllm_symbols", "vllm_classes", "git_history", "hub_uploads")
BASE = "https://vllm-kb.dev/schema/"


@lru_cache(maxsize=None)
def raw(name: str) -> dict:
    return json.loads(resources.read_text("schema", f"{name}.schema.json"))


@lru_cache(maxsize=1)
def _registry():
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    resources_ = []
    for name in SCHEMA_FILES:
        try:
            doc = raw(name)
        except FileNotFoundError:
            continue
        resources_.append((doc["$id"], Resource.from_contents(doc, default_specification=DRAFT202012)))
    return Registry().with_resources(resources_)


@lru_cache(maxsize=None)
def validator(name: str):
    from jsonschema import Draft202012Validator

    return Draft202012Validator(raw(name), registry=_registry())


def json_path(parts) -> str:
    out = ""
    for p in parts:
        if isinstance(p, int):
            out += f"[{p}]"
        else:
            out += ("." if out else "") + str(p)
    return out


def _leaf_errors(err) -> Iterator:
    """For oneOf/anyOf failures, the most relevant sub-error instead of 'is not valid under any'."""
    if err.validator in ("oneOf", "anyOf") and err.context:
        from jsonschema.exceptions import best_match

        yield from _leaf_errors(best_match(err.context))
        return
    yield err


def message(err) -> str:
    v = err.validator
    inst = err.instance
    if v == "type":
        want = err.validator_value if isinstance(err.validator_value, str) else " or ".join(err.validator_value)
        return f"expected {want}, got {_show(inst)}"
    if v == "required":
        missing = err.message.split("'")[1] if "'" in err.message else err.message
        return f"missing required key '{missing}'"
    if v == "additionalProperties":
        extra = sorted(set(inst) - set(err.schema.get("properties", {}))) if isinstance(inst, dict) else []
        return f"unknown key {', '.join(repr(e) for e in extra)}" if extra else err.message
    if v == "enum":
        return f"expected one of {', '.join(map(str, err.validator_value))}, got {_show(inst)}"
    if v == "const":
        return f"expected {err.validator_value!r}, got {_show(inst)}"
    if v == "pattern":
        return f"{_show(inst)} does not match {err.validator_value}"
    if v in ("minItems", "minLength"):
        return f"too short ({v} {err.validator_value})"
    if v == "not":
        return "this key is not allowed here"
    return err.message


def _show(v: Any) -> str:
    s = json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else repr(v)
    return s if len(s) <= 60 else s[:57] + "…"


def errors(name: str, instance: Any) -> list[tuple[list, str]]:
    """(path parts, message) for every violation, sorted by path."""
    out = []
    for err in validator(name).iter_errors(instance):
        for leaf in _leaf_errors(err):
            out.append((list(leaf.absolute_path), message(leaf)))
    out.sort(key=lambda x: [str(p) for p in x[0]])
    return out
