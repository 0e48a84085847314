"""Fixes for container launches, written where the argument is: an item of a Dockerfile
exec-form array, of a compose `command:` or Kubernetes `args:` list, of the Helm chart's
`image.command`, a production-stack `vllmConfig` key or `extraArgs` item — and the container's
environment (compose `environment:`, Kubernetes `env:`, Dockerfile `ENV`). Each edit replaces
exactly the bytes of the items it changes (engine/fix/yaml_edits.py for YAML, the recorded
offsets of each JSON string for a Dockerfile); a command written as one shell string is left
for a person."""
from __future__ import annotations

import json
from typing import Any

from vllm_kb.engine.fix import flow_edits, yaml_edits
from vllm_kb.engine.fix.changes import Change, merge_value
from vllm_kb.engine.fix.edits import TextEdit
from vllm_kb.engine.fix.syntax import CRD_FIELDS, PRODUCTION_STACK_KEYS, crd_field, worker_env_value
from vllm_kb.engine.scan.site import Site


def deploy_edit(site: Site, ch: Change, text: str) -> list[TextEdit] | None:
    src = site.source if isinstance(site.source, dict) else {}
    if ch.op in ("env", "unset_env") or ch.env_name:
        return _env_edit(src, ch, text)
    if ch.file != site.file or "argv_pos" not in src:
        return None
    style = src.get("argv_style")
    if style == "production-stack" or style in CRD_FIELDS:
        got = _key_edit(src, ch, text, style)
        if got is not NotImplemented:
            return got
    tokens = _tokens(ch.after, style)
    s = ch.setting
    if s is not None and s.span is not None:
        where = src["argv_pos"][s.span[0]:s.span[1] + 1]
        if not where or any(p is None or "ps_key" in p for p in where):
            return None
        if ch.op == "unset" or not tokens:
            return _remove(text, where)
        words = src["words"][s.span[0]:s.span[1] + 1]
        old = [w.raw for w in words]
        if len(old) == 1 and len(tokens) == 2 and old[0].startswith("--") and "=" in old[0]:
            tokens = [tokens[0] + "=" + tokens[1]]  # keep the `--k=v` spelling
        if len(tokens) != len(old):
            removed = _remove(text, where)
            added = _append(text, src.get("argv_append"), tokens)
            return removed + added if removed is not None and added is not None else None
        out: list[TextEdit] = []
        for p, was, new in zip(where, old, tokens):
            if _same_flag(was, new) or was == new:
                continue
            if "$" in was or "$" in _written(text, p):
                return None  # `${TP:-1}`, `$(TP)`: the value comes from elsewhere; a person decides
            got = _replace(text, p, new)
            if got is None:
                return None
            out += got
        return out
    if ch.op != "set" or not tokens:
        return None
    return _append(text, src.get("argv_append"), tokens)


def _same_flag(a: str, b: str) -> bool:
    """`--gpu_memory_utilization` and `--gpu-memory-utilization` are one flag: keep the written one."""
    return a.startswith("--") and b.startswith("--") and a.replace("_", "-") == b.replace("_", "-")


def _tokens(after: str | None, style: str | None) -> list[str] | None:
    if not after:
        return None
    if style == "production-stack" or style in CRD_FIELDS:
        head, _, rest = after.partition(":")
        if head.strip() not in ("extraArgs", "vllmConfig.extraArgs"):
            return None
        after = rest.strip()[1:-1]
    elif style not in ("json", "yaml-list"):
        return None  # a command string
    try:
        got = json.loads("[" + after + "]")
    except ValueError:
        return None
    return [str(t) for t in got]


def _yaml(text: str, p: dict):
    index, path = p["yaml"]
    d = yaml_edits.doc(text, index)
    return d, tuple(path)


def _written(text: str, p: dict) -> str:
    """An item as the file writes it (before `$(VAR)` / `${VAR}` were expanded)."""
    if "json" in p:
        a, b = p["json"]
        return text[a:b]
    d, path = _yaml(text, p)
    n = d.get(path) if d is not None else None
    return str(n.value) if n is not None and n.kind == "scalar" else ""


def _replace(text: str, p: dict, new: str) -> list[TextEdit] | None:
    if "json" in p:
        a, b = p["json"]
        return [TextEdit(a, b, json.dumps(new, ensure_ascii=False))]
    d, path = _yaml(text, p)
    return yaml_edits.set_value(text, d, path, new) if d is not None else None


def _remove(text: str, where: list[dict]) -> list[TextEdit] | None:
    """Remove contiguous items of one list."""
    if all("json" in p for p in where):
        return [flow_edits.flow_cut(text, where[0]["json"][0], where[-1]["json"][1])]
    if not all("yaml" in p for p in where):
        return None
    d, first = _yaml(text, where[0])
    _, last = _yaml(text, where[-1])
    if d is None or first[:-1] != last[:-1] or not isinstance(first[-1], int):
        return None
    return yaml_edits.remove_items(text, d, first[:-1], first[-1], last[-1])


def _append(text: str, at: dict | None, tokens: list[str]) -> list[TextEdit] | None:
    if not at:
        return None
    if "json_after" in at:
        pos = at["json_after"]
        lits = ", ".join(json.dumps(t, ensure_ascii=False) for t in tokens)
        if at.get("empty"):
            return [TextEdit(pos, pos, lits, ("flow", pos), strict=True)]  # a second item waits: it needs a comma
        ls = text.rfind("\n", 0, pos) + 1
        first = next((m.start() for m in _QUOTE.finditer(text, ls, pos)), pos)
        return [TextEdit(pos, pos, flow_edits.flow_gap(text, first, pos) + lits, strict=True)]
    d, path = _yaml(text, at)
    if d is None:
        return None
    if d.get(path) is None:
        return yaml_edits.set_value(text, d, path, tokens)  # `args:` not written yet
    return yaml_edits.append_items(text, d, path, tokens)


_QUOTE = __import__("re").compile(r'"')


def _key_edit(src: dict, ch: Change, text: str, style: str):
    """A production-stack vllmConfig key, or a VLLMRuntime field (scan/deploy/vllmruntime.py KEYS):
    one the file writes is edited in place; one it leaves out is written at its own place (under
    vllmConfig, or under the resource's spec — where an operator-written switch is set too)."""
    crd = CRD_FIELDS.get(style)

    def typed(v: Any) -> Any:
        return crd[1](ch.target, _plain(v)) if crd else _plain(v)
    s = ch.setting
    where = src["argv_pos"][s.span[0]] if s is not None and s.span is not None else None
    if where is not None and "ps_key" in where:
        d, path = _yaml(text, where)
        if d is None:
            return None
        if ch.op == "unset" or ch.after is None:
            return yaml_edits.remove(text, d, path)
        return yaml_edits.set_value(text, d, path, typed(merge_value(ch.value, s)))
    key = PRODUCTION_STACK_KEYS.get(ch.target)
    at = crd_field(style, ch.target, ch.value) if crd else (key,) if key else None
    if at is None or ch.op != "set" or (s is not None and not (crd and s.implied)):
        return NotImplemented
    if (src.get("crd_spec") if crd else src.get("vllm_config")) is None:
        return NotImplemented  # the CRD's first schema has no field of that name
    d, base = _yaml(text, src["crd_spec" if crd else "vllm_config"])
    return yaml_edits.set_value(text, d, base + at, typed(ch.value)) if d is not None else None


def _plain(v: Any) -> Any:
    return int(v) if isinstance(v, float) and v.is_integer() else v


def deploy_rename(site: Site, ch: Change, text: str) -> list[TextEdit] | None:
    """A misspelt flag in a container's argv renamed in its own item (`--k=v` keeps its value)."""
    src = site.source if isinstance(site.source, dict) else {}
    s = ch.setting
    where = src.get("argv_pos") or []
    if s is None or s.span is None or s.span[0] >= len(where) or where[s.span[0]] is None or "ps_key" in where[s.span[0]]:
        return None
    p = where[s.span[0]]
    old = s.key.split("=", 1)[0]
    if "json" in p:
        a, b = p["json"]
        try:
            token = json.loads(text[a:b])
        except ValueError:
            return None
        return [TextEdit(a, b, json.dumps(token.replace(old, ch.key, 1), ensure_ascii=False))] if token.startswith(old) else None
    token = _written(text, p)
    return _replace(text, p, token.replace(old, ch.key, 1)) if token.startswith(old) else None  # type: ignore[arg-type]


# --- environment ----------------------------------------------------------------------------

def _env_edit(src: dict, ch: Change, text: str) -> list[TextEdit] | None:
    s = ch.setting
    value = None if ch.op in ("unset_env", "unset") else worker_env_value(ch.value) if ch.env_name else str(ch.value)
    name = ch.env_name or ch.target
    p = s.pos if s is not None else None
    if p and "docker_env" in p:
        if value is None:
            if p["pairs"] == 1:
                return [_whole_line(text, *p["line"])]
            a, b = p["pair"]
            return [TextEdit(a - 1 if text[a - 1:a] in " \t" else a, b, "")]
        a, b = p["docker_env"]
        return [TextEdit(a, b, json.dumps(value) if not _shell_plain(value) else value)]
    if p and "yaml" in p:
        d, path = _yaml(text, p)
        if d is None:
            return None
        if value is None:
            return yaml_edits.remove(text, d, path)
        style = p.get("env_style")
        if style == "k8s":
            return yaml_edits.set_value(text, d, path + ("value",), value)
        if style == "list":
            return yaml_edits.set_value(text, d, path, f"{name}={value}")
        return yaml_edits.set_value(text, d, path, value)
    if value is None or s is not None:
        return None
    at = src.get("env_at")
    if not at:
        return None
    if "docker_line" in at:
        pos = at["docker_line"]
        return [TextEdit(pos, pos, f"ENV {name}={value if _shell_plain(value) else json.dumps(value)}\n")]
    d, path = _yaml(text, at)
    if d is None:
        return None
    style = at.get("env_style")
    node = d.get(path)
    if style == "k8s":
        item = {"name": name, "value": value}
        return yaml_edits.append_items(text, d, path, [item]) if node is not None else yaml_edits.set_value(text, d, path, [item])
    if style == "list" and node is not None:
        return yaml_edits.append_items(text, d, path, [f"{name}={value}"])
    return yaml_edits.set_value(text, d, path + (name,), value)


def _shell_plain(v: str) -> bool:
    import re

    return bool(re.fullmatch(r"[A-Za-z0-9_./:@%+=,-]+", v))


def _whole_line(text: str, ls: int, le: int) -> TextEdit:
    return TextEdit(ls, min(le + 1, len(text)), "")
