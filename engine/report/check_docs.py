"""A check as a document: its texts, its rules in reading order and, for every fix a rule
asks for, how that setting is written in each syntax a site can use (`vllm serve` flag,
Python keyword argument, `--config` YAML key, environment variable).

The skill's references and the MCP server's `explain_check` tool and `vllm-kb://checks/…`
resources all read these records, so an agent sees the same thing whichever face it uses.
The spellings come from the engine's own fix renderers (engine/fix/changes.py) and the vLLM
catalog, so a reference never shows a flag the audit would not write."""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Callable

from vllm_kb.engine.kb import catalog as catalog_mod
from vllm_kb.engine.fix import changes as fixes
from vllm_kb.engine.fix import literals
from vllm_kb.engine.kb.knowledge import Check, FixOp, Knowledge, Rule, Text
from vllm_kb.engine.scan.site import Site
from vllm_kb.engine.kb.versions import SpecifierSet, newest_matching, parse

# How a text field is shown: one language ("en"/"zh"), or both as {"en": …, "zh": …}.
Lang = str | None
SYNTAXES = ("cli", "python", "yaml", "env", "container")  # container: an option of the `docker run` (L40's --ipc=host)


def text_of(t: Text | None, lang: Lang) -> Any:
    if t is None:
        return None
    if lang is None:
        return {"en": t.en, "zh": t.zh}
    return t(lang)


def summary(c: Check, lang: str) -> dict[str, Any]:
    """What a listing shows: one line per check."""
    return {"id": c.id, "name": c.name, "category": c.category, "title": c.title(lang), "priority": c.priority,
            "modes": list(c.modes), "vllm": str(c.vllm) if c.vllm else None, "aliases": list(c.aliases)}


def record(c: Check, kb: Knowledge, lang: Lang, cat: catalog_mod.Catalog | None = None) -> dict[str, Any]:
    """Everything a reader needs to apply a check by hand, texts in `lang` (None: both)."""
    cat = cat or catalog_mod.load()
    category = kb.category(c.category)
    return {
        "id": c.id,
        "name": c.name,
        "aliases": list(c.aliases),
        "category": {"id": c.category, "title": text_of(Text.of(category["title"]), lang)},
        "title": text_of(c.title, lang),
        "priority": c.priority,
        "modes": list(c.modes),
        "vllm": str(c.vllm) if c.vllm else None,
        "outside_versions": text_of(c.outside_versions, lang),
        "rationale": text_of(c.rationale, lang),
        "advice": text_of(c.advice, lang),
        "rules": [_rule(r, c, lang) for r in c.rules],
        "otherwise": {"status": c.otherwise_status, "reason": text_of(c.otherwise_reason, lang)},
        "enable": how_to_enable(c, cat),
        "sources": [{"title": s["title"], "url": s["url"]} for s in c.sources],
        "error_text": [{"text": e["text"], "vllm": e["vllm"], "origin": e.get("origin", "vllm")} for e in c.error_text],
        "file": c.file,
    }


def _rule(r: Rule, c: Check, lang: Lang) -> dict[str, Any]:
    out: dict[str, Any] = {"status": r.status, "vllm": str(r.vllm) if r.vllm else None, "when": r.when,
                           "reason": text_of(r.reason, lang)}
    if r.status == "recommended":
        out["priority"] = r.priority or c.priority
        out["safe"] = r.safe
        out["fix"] = [_op_json(op) for op in r.fix]
        out["source"] = [dict(x) for x in r.source]
    return out


def _op_json(op: FixOp) -> dict[str, Any]:
    return {"op": op.kind, "target": op.target, "value": op.value, "value_from": op.value_from}


# --- how a fix is written in each syntax ------------------------------------------------------
# Each syntax gets a list of actions, so every face words them in its own language:
#   {"action": "write", "text": "--kv-cache-dtype fp8"}      add or change to this text
#   {"action": "remove", "text": "--swap-space"}             delete the setting written so
#   {"action": "remove_keys", "text": "--attention-config", "keys": ["flash_attn_version"]}

class _FlagCache:
    """The catalog with flag lookups remembered. `Catalog.long_flag` scans every flag of every
    release on each call, and a full bundle asks it a few hundred times; the answers are fixed
    for a loaded catalog."""

    def __init__(self, cat: catalog_mod.Catalog):
        self._cat = cat
        self._long: dict[tuple[str, str], str | None] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self._cat, name)

    def long_flag(self, dest: str, version: str) -> str | None:
        key = (dest, version)
        if key not in self._long:
            self._long[key] = self._cat.long_flag(dest, version)
        return self._long[key]


@lru_cache(maxsize=4)
def _cached(cat: catalog_mod.Catalog) -> _FlagCache:
    return _FlagCache(cat)


def how_to_enable(c: Check, cat: catalog_mod.Catalog) -> list[dict[str, Any]]:
    """One entry per distinct fix among the check's recommended rules: the vLLM range it is
    for, the release it is spelled for, and the same change for each syntax."""
    if not isinstance(cat, _FlagCache):
        cat = _cached(cat)  # type: ignore[assignment]
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for r in c.rules:
        if r.status != "recommended" or not r.fix:
            continue
        version = _render_version(c, r, cat)
        entry = {"vllm": str(r.vllm) if r.vllm else None, "version": version,
                 "priority": r.priority or c.priority,
                 **{syntax: [a for op in r.fix for a in _spell(op, syntax, cat, version)] for syntax in SYNTAXES}}
        key = json.dumps({k: entry[k] for k in SYNTAXES}, sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        out.append(entry)
    return out


def _render_version(c: Check, r: Rule, cat: catalog_mod.Catalog) -> str:
    """The newest catalogued release the rule applies to: flags are spelled as that release
    spells them (a rule for old releases gets the old spelling)."""
    spec = SpecifierSet(",".join(s for s in (str(c.vllm) if c.vllm else "", str(r.vllm) if r.vllm else "") if s))
    hit = newest_matching(spec, [parse(str(v)) for v in cat.versions]) if spec else None
    return str(hit) if hit else cat.newest


def _blank_site(syntax: str) -> Site:
    # The renderers read a site's spelling preferences; a reference uses vLLM's defaults.
    return Site(file="", line=0, syntax=syntax, kind="vllm serve", mode="standalone_serve", mode_evidence="")


def _write(text: str) -> dict[str, Any]:
    return {"action": "write", "text": text}


def _remove(text: str) -> dict[str, Any]:
    return {"action": "remove", "text": text}


def _spell(op: FixOp, syntax: str, cat: catalog_mod.Catalog, version: str) -> list[dict[str, Any]]:
    if (op.kind == "container") != (syntax == "container"):  # the `docker run`'s option, whatever the launch's syntax
        return []
    if op.kind == "container":
        return [_write(f"--{op.target}={op.value}")]
    if op.is_env:
        if syntax != "env":
            return []
        if op.kind == "unset_env":
            return [_remove(op.target)]
        value = f"<{op.value_from}>" if op.value_from else op.value
        return [_write(f"export {op.target}={value}")]
    if syntax == "env":
        return []
    name = _name(op.target, syntax, cat, version)
    if op.kind == "unset":
        return [_remove(name)]
    if op.value_from:
        # computed per site by the CEL expression: shown as <expr>
        sep = {"cli": " ", "yaml": ": ", "python": "="}[syntax]
        return [_write(f"{name}{sep}<{op.value_from}>")]
    value = op.value
    out: list[dict[str, Any]] = []
    if isinstance(value, dict) and any(v is None for v in value.values()):
        # `{flash_attn_version: null}` means "take this key out of the JSON argument"
        out.append({"action": "remove_keys", "text": name, "keys": [k for k, v in value.items() if v is None]})
        value = {k: v for k, v in value.items() if v is not None}
        if not value:
            return out
    if value is False and _default(op.target, cat, version) is False:
        # a switch set back to its default: drop it (`--enforce-eager`), as the audit's fix does
        return [_remove(name)] + out
    return [_write(_set(op.target, value, syntax, cat, version))] + out


def _default(target: str, cat: catalog_mod.Catalog, version: str) -> Any:
    e = cat.arg(target)
    return e.field("default", version) if e is not None and e.exists(version) else None


def _name(target: str, syntax: str, cat: catalog_mod.Catalog, version: str) -> str:
    if syntax == "cli":
        return cat.long_flag(target, version) or "--" + target.replace("_", "-")
    if syntax == "yaml":
        return target.replace("_", "-")
    return target


def _set(target: str, value: Any, syntax: str, cat: catalog_mod.Catalog, version: str) -> str:
    if syntax == "cli":
        text = fixes.cli_text(cat, version, _blank_site("cli"), target, value, None)
        return text if text is not None else _name(target, syntax, cat, version)
    if syntax == "yaml":
        return f"{_name(target, syntax, cat, version)}: {literals.yaml_scalar(value)}"
    return f"{target}={literals.py_literal(value)}"


def records(kb: Knowledge, lang: Lang, keep: Callable[[Check], bool] = lambda c: True) -> list[dict[str, Any]]:
    cat = catalog_mod.load()
    return [record(c, kb, lang, cat) for c in kb.checks if keep(c)]
