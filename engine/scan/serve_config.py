"""`vllm serve --config FILE` YAML: long option names as keys (either spelling), booleans as
switches, lists repeated, mappings as JSON — the rules of vLLM's load_config_file."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan.cli_args import coerce, normalise_flag
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.site import Setting


def read_config(ctx: ScanContext, rel: str, version: str):
    """(settings, unknown, model, key_style) from a serve config file, or None if unreadable."""
    text = ctx.read(rel)
    if text is None:
        return None
    try:
        doc = yamlio.load(text)
    except yamlio.YamlError as e:
        ctx.skip(rel, "yaml-error", e.line, str(e))
        return None
    data = doc.data
    if data is None:
        data = {}
    if not isinstance(data, dict):
        ctx.skip(rel, "config-shape", doc.start_line)
        return None
    return settings_from_mapping(ctx, rel, version, data, doc)


def settings_from_mapping(ctx: ScanContext, rel: str, version: str, data: dict, doc: yamlio.Document, base: tuple = ()):
    settings: dict[str, Setting] = {}
    unknown: dict[str, Setting] = {}
    model = None
    snake = kebab = 0
    for key, value in data.items():
        key_s = str(key)
        line = doc.line_of(base + (key_s,))
        snake += "_" in key_s
        kebab += "-" in key_s
        flag, _ = normalise_flag("--" + key_s)
        e = ctx.catalog.flag(flag)
        negated = False
        if e is None and flag.startswith("--no-"):
            e2 = ctx.catalog.flag("--" + flag[5:])
            if e2 is not None:
                e, negated = e2, True
        if e is None:
            dest = key_s.replace("-", "_")
            unknown[dest] = Setting(dest, value, True, rel, line, key_s, _raw(value), "yaml-config", known=False,
                                    pos=doc.pos(base + (key_s,)))
            continue
        exists = e.exists(version)
        dest = e.field("dest", version if exists else e.last)
        entry = ctx.catalog.arg(dest)
        typ = entry.field("type", version if entry.exists(version) else entry.last) if entry else "str"
        v: Any = value
        if negated and isinstance(value, bool):
            v = not value
        elif isinstance(value, str) and typ not in ("str",):
            v = coerce(value, typ)
        elif typ == "float" and isinstance(value, int) and not isinstance(value, bool):
            v = float(value)
        if dest == "optimization_level" and not isinstance(v, int):
            level = str(v).upper().removeprefix("O")
            v = int(level) if level.isdigit() else v
        s = Setting(dest, v, v is not None, rel, line, key_s, _raw(value), "yaml-config", known=exists,
                    pos=doc.pos(base + (key_s,)))
        if dest == "model":
            model = s
        else:
            settings[dest] = s
    style = "snake" if snake > kebab else "kebab"
    return settings, unknown, model, style


def _raw(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
