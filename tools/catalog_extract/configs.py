"""The fields inside JSON-valued engine arguments (`--compilation-config '{"mode": 3}'`,
`--attention-config.flash_attn_version 3`, `--speculative-config '{"method": …}'`): one entry
per `arg.field`, with its type, default and allowed values in that release, so a claim about a
nested value (flash_attn_version 4, compilation mode 3) can be checked like a top-level one."""
from __future__ import annotations

import ast
import re

from catalog_extract.flags import to_json
from catalog_extract.interp import Interp
from catalog_extract.sources import ClassInfo, hints, literal_choices, render
from catalog_extract.values import arg_type

# Where a config class lives when the EngineArgs field is typed `dict` or `str` (older releases).
_CONFIG_MODULES = ("vllm.config", "vllm.config.{short}", "vllm.config.kv_transfer", "vllm.config.kv_events",
                   "vllm.config.compilation", "vllm.config.speculative", "vllm.config.attention")
_ACRONYMS = {"kv": "KV", "ec": "EC", "lora": "LoRA", "hf": "Hf"}


def _class_name(field: str) -> str:
    """compilation_config -> CompilationConfig, kv_transfer_config -> KVTransferConfig."""
    return "".join(_ACRONYMS.get(p, p.capitalize()) for p in field.split("_"))


def _config_class(it: Interp, field: str, ann_hints: list) -> ClassInfo | None:
    for h in ann_hints:
        if h[0] == "cls" and h[1].name.endswith(("Config", "ConfigArgs")) and not h[1].is_enum:
            return h[1]
    if not field.endswith("_config"):
        return None
    name = _class_name(field)
    short = field[: -len("_config")]
    mods = [m.format(short=short) for m in _CONFIG_MODULES]
    return it.src.find_class(mods, name)


def _enum_values(info: ClassInfo) -> tuple[list, dict]:
    """An enum's allowed values: ints for an IntEnum (names map to them), else member names."""
    names = {}
    for n, expr in info.members():
        if isinstance(expr, ast.Constant) and isinstance(expr.value, int) and not isinstance(expr.value, bool):
            names[n] = expr.value
    if names and (info.is_int_enum or not info.is_enum):  # plain classes of int constants (CompilationLevel)
        return sorted(set(names.values())), names
    return [n for n, _ in info.members()], {}


def config_fields(it: Interp, engine: dict) -> dict:
    """`arg.field` -> {type, default, choices[, names]} for every config-class engine argument."""
    src = it.src
    info = src.find_class(["vllm.engine.arg_utils"], "AsyncEngineArgs") or \
        src.find_class(["vllm.engine.arg_utils"], "EngineArgs")
    if info is None:
        return {}
    out = {}
    for fname, ann, _expr, owner in info.fields():
        if fname not in engine:
            continue
        cls = _config_class(it, fname, hints(src, ann, owner.mod))
        if cls is None or not cls.is_dataclass:
            continue
        for sub, sann, sexpr, sowner in cls.fields():
            if sub.startswith("_"):
                continue
            hs = hints(src, sann, sowner.mod)
            choices, names = literal_choices(hs), {}
            enum = next((h[1] for h in hs if h[0] == "cls" and (h[1].is_enum or _is_constants(h[1]))), None)
            if enum is not None and (enum.is_int_enum or not choices):
                choices, names = _enum_values(enum)
            default = to_json(it.guarded(it.field_default, sowner, sub, sexpr))
            if names and isinstance(default, str) and default.upper() in names:
                default = names[default.upper()]
            rec = {"type": "int" if names else arg_type(render(hs), default, choices), "default": default}
            if choices:
                rec["choices"] = choices
            if names:
                rec["names"] = names
            out[f"{fname}.{sub}"] = rec
    return out


def _is_constants(info: ClassInfo) -> bool:
    """A class of upper-case int constants standing in for an enum (CompilationLevel ≤0.11.0)."""
    members = info.members()
    return bool(members) and all(re.fullmatch(r"[A-Z0-9_]+", n) and isinstance(e, ast.Constant)
                                 and isinstance(e.value, int) for n, e in members)
