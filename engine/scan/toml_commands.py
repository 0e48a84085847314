"""Command lines held in the values of a TOML file that launch vLLM — Cerebrium's cerebrium.toml
`[cerebrium.runtime.custom] entrypoint = ["vllm", "serve", …]`, a job runner's `cmd = "vllm serve …"`:
the TOML form of a YAML or JSON file's commands (engine/scan/yaml_commands.py), read the same way.
tomllib gives no positions: a value's line is found by its key in the text, under its table's
header. A file that is not valid TOML (a template with `{placeholders}` filled before it is read)
is skipped as invalid, never guessed at."""
from __future__ import annotations

import re
import shlex

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.kb.tomlread import error_line, toml
from vllm_kb.engine.scan import pins, yaml_commands
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.site import Site


def scan(ctx: ScanContext, rel: str, text: str) -> list[Site]:
    if "vllm" not in text:  # an argv list spells no `vllm serve` in the text: read the values
        return []
    try:
        data = toml().loads(text)
    except (toml().TOMLDecodeError, ValueError) as e:
        ctx.skip(rel, "toml-error", error_line(e), str(e)[:160])
        return []
    lines = text.splitlines()
    where = {path: _line_of(lines, path) for path, value, _ in yaml_commands._values(data, (), [yaml_commands._MAX_VALUES])
             if yaml_commands.launches(value) and path and isinstance(path[-1], str)}
    installed = _cerebrium_install(ctx, rel, data, lines)
    sites = yaml_commands.scan(ctx, rel, yamlio.Document(data=data, lines={p: n for p, n in where.items() if n}),
                               ctx.catalog.installed_version(installed[0] if installed else None))
    placeholder = _pip_spec(data)
    for s in sites:
        s.installed = s.installed or installed
        if installed is None and placeholder and "{" in placeholder:
            # `vllm = "=={vllm_version}"` in a template the project renders: the release is the code's choice
            s.launch["release_placeholder"] = "vllm" + placeholder
    return sites


def _pip_spec(data: dict) -> str | None:
    table = ((data.get("cerebrium") or {}).get("dependencies") or {}).get("pip") if isinstance(data.get("cerebrium"), dict) else None
    spec = table.get("vllm") if isinstance(table, dict) else None
    return spec.strip() if isinstance(spec, str) else None


def _cerebrium_install(ctx: ScanContext, rel: str, data: dict, lines: list[str]):
    """The vLLM Cerebrium installs for the app: `[cerebrium.dependencies.pip] vllm = "==0.8.5"` (a
    requirement spec; "latest" or "" is no pin), as a pip line would give it."""
    spec = _pip_spec(data)
    if not spec or spec == "latest":
        return None
    found = pins.script_pins(ctx, rel, "pip install " + shlex.quote("vllm" + spec.strip()))
    line = _line_of(lines, ("cerebrium", "dependencies", "pip", "vllm")) or 1
    for p in found:
        p.line = line
    return pins.site_install(found, ctx.catalog.versions, ctx.catalog.newest)


def _line_of(lines: list[str], path: tuple) -> int | None:
    """The line a value starts on: its `key =` line after the header of the table that holds it
    (`[a.b]`, or a dotted key `b.key =` under `[a]`); the next line for a `\"\"\"` string, whose
    first newline TOML drops. None when the key is not found there."""
    key = re.escape(path[-1])
    tables = [str(p) for p in path[:-1] if isinstance(p, str)]
    start, rest = 0, tables
    for n in range(len(tables), -1, -1):  # the deepest header written, then a dotted key under it
        header = re.compile(r"^\s*\[\s*" + r"\s*\.\s*".join(re.escape(t) for t in tables[:n]) + r"\s*\]\s*(?:#.*)?$") if n else None
        at = next((i for i, ln in enumerate(lines) if header.match(ln)), None) if header else 0
        if at is not None:
            start = at
            rest = tables[n:]
            break
    dotted = r"\s*\.\s*".join([*(re.escape(t) for t in rest), key])
    pattern = re.compile(r"^\s*[\"']?" + dotted + r"[\"']?\s*=\s*(.*)$")
    for i in range(start, len(lines)):
        if i > start and _HEADER.match(lines[i]):
            break  # the table's keys end at the next header
        m = pattern.match(lines[i])
        if m:
            return i + 2 if m.group(1).strip() in ('"""', "'''") else i + 1
    return None


_HEADER = re.compile(r"^\s*\[\[?[\w\s.\"'-]+\]\]?\s*(?:#.*)?$")
