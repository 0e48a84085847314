"""A change in the site's own spelling: a value merged into the dict the site already has, the
flag a command line takes for an engine argument (its long form, snake_case where the site writes
so, a switch or its `--no-` form) and a `--config` YAML key (engine/fix/changes.py plans them)."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.fix.literals import shell_word
from vllm_kb.engine.fix.release_valid import release_form
from vllm_kb.engine.kb.catalog import Catalog
from vllm_kb.engine.scan.site import Setting, Site


def merge_value(value: Any, existing: Setting | None) -> Any:
    """A dict fix updates the dict the site already has; a key set to None is removed."""
    if isinstance(value, dict):
        base = dict(existing.value) if existing is not None and isinstance(existing.value, dict) else {}
        base.update(value)
        return {k: v for k, v in base.items() if v is not None}
    return value


def _flag_for(cat: Catalog, version: str, dest: str, site: Site, existing: Setting | None) -> str:
    if existing is not None and existing.key.startswith("-") and "." not in existing.key:
        key = existing.key.split("=", 1)[0]
        if key.startswith("--no-"):
            key = "--" + key[5:]
        return key
    flag = cat.long_flag(dest, version) or "--" + dest.replace("_", "-")
    if site.flag_style == "snake":
        flag = "--" + flag[2:].replace("-", "_")
    return flag


def _flag_kind(cat: Catalog, version: str, flag: str) -> str:
    from vllm_kb.engine.scan.cli_args import normalise_flag

    e = cat.flag(normalise_flag(flag)[0])
    if e is None:
        return "value"
    return e.field("kind", version if e.exists(version) else e.last) or "value"


def cli_text(cat: Catalog, version: str, site: Site, dest: str, value: Any, existing: Setting | None) -> str | None:
    """`--kv-cache-dtype fp8`, `--enable-prefix-caching`, `--no-enable-prefix-caching`; None for a switch's absence."""
    if site.tool == "xinference":
        # `xinference launch` hands each `--key value` pair on as the keyword `key`, as written
        # (deploy/cmdline.py model_launch; the value through handle_click_args_type): the engine
        # argument's own name, and a value for every key, a switch's as true/false
        key = existing.key if existing is not None and existing.key.startswith("--") else "--" + dest
        value = merge_value(value, existing)
        return f"{key} {shell_word('true' if value is True else 'false' if value is False else value)}"
    flag = _flag_for(cat, version, dest, site, existing)
    kind = _flag_kind(cat, version, flag)
    if isinstance(value, bool) and kind in ("switch", "negatable"):
        if value:
            return flag
        if existing is not None and existing.value is True:
            return None  # dropping `--enforce-eager` is clearer than adding `--no-enforce-eager`
        return "--no-" + flag[2:] if kind == "negatable" else None
    if kind == "values" and isinstance(value, list):
        return flag + " " + " ".join(shell_word(x) for x in value)
    value = release_form(dest, merge_value(value, existing), version, "cli")
    if isinstance(value, bool):
        value = "true" if value else "false"
    return f"{flag} {shell_word(value)}"


def yaml_key(site: Site, dest: str, existing: Setting | None) -> str:
    if existing is not None and existing.syntax == "yaml-config":
        return existing.key
    return dest if site.config_key_style == "snake" else dest.replace("_", "-")
