"""A verl run a Python script composes itself: `hydra.compose(config_name=…, overrides=[…])` with a
list of Hydra overrides written in the script (`"actor_rollout_ref.rollout.name=vllm"`,
f"actor_rollout_ref.rollout.tensor_model_parallel_size={args.tp}"), then starts the rollout from
that config (linmumu009/qwen3.6-27b-GRPO-veRL's standalone vLLM rollout, eval64); the script must
import verl, which a script that only composes the config to print it does not. Read as the same
overrides on a command line would be; a value the script fills in at run time is unknown. The
list's items have no command words to edit, so the site's changes are for a person to make."""
from __future__ import annotations

import ast

from vllm_kb.engine.kb import frameworks
from vllm_kb.engine.scan import framework_site
from vllm_kb.engine.scan.context import parse_python
from vllm_kb.engine.scan.fw_launch import _typed
from vllm_kb.engine.scan.site import Setting, Site


def mentions(text: str) -> bool:
    return "compose(" in text and "actor_rollout_ref." in text and "hydra" in text


def scan(ctx, rel: str, text: str) -> list[Site]:
    try:
        tree = parse_python(text, rel)
    except (SyntaxError, ValueError, RecursionError):
        return []
    if not _imports_verl(tree):
        return []  # a script that only composes the config to print or check it starts nothing
    out = []
    for fn in [tree, *(n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))]:
        lists = _assigned_lists(fn)
        for call in _own_calls(fn):
            if _callee(call.func) not in ("hydra.compose", "compose"):
                continue
            given = next((k.value for k in call.keywords if k.arg == "overrides"), call.args[1] if len(call.args) > 1 else None)
            items = given.elts if isinstance(given, ast.List) else lists.get(given.id) if isinstance(given, ast.Name) else None
            entries = [e for item in items or () if (e := _entry(item, rel, text)) is not None]
            if not any(e.written == "actor_rollout_ref.rollout.name" for e in entries):
                continue
            if (site := verl_site(ctx, rel, call, entries, "verl hydra.compose", {"compose": True})) is not None:
                out.append(site)
    return out


def verl_site(ctx, rel: str, call: ast.Call, entries: list, kind: str, source: dict) -> Site | None:
    """A verl run read from Python at `call`: its keys as Hydra overrides, with no words to edit."""
    fw = frameworks.get("verl")
    site = framework_site.build_site(fw, entries, file=rel, line=call.lineno, end_line=call.end_lineno or call.lineno,
                                     syntax="hydra-override", kind=kind, version=ctx.framework_version(rel, fw.package),
                                     command="train", source=source)
    if site is not None:
        framework_site.device_tp(site)
        site.flag_style = "snake"
    return site


def _own_calls(fn) -> list[ast.Call]:
    """The calls of a function's own body (a nested function is read as its own scope); the module's
    top level for the tree itself."""
    out, stack = [], list(ast.iter_child_nodes(fn))
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(n, ast.Call):
            out.append(n)
        stack.extend(ast.iter_child_nodes(n))
    return out


def _assigned_lists(fn) -> dict[str, list]:
    """Names bound once in the scope to a list literal: `overrides = ["a=1", f"b={x}"]`."""
    got: dict[str, list] = {}
    seen: set[str] = set()
    for n in ast.walk(fn):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            name = n.targets[0].id
            if name in seen:
                got.pop(name, None)  # bound twice: which list reaches the call is not told here
                continue
            seen.add(name)
            if isinstance(n.value, ast.List):
                got[name] = n.value.elts
    return got


def _entry(item, rel: str, text: str) -> framework_site.Entry | None:
    """`"key=value"`, or an f-string whose key is written out (its value filled in at run time)."""
    raw = ast.get_source_segment(text, item) or ""
    if isinstance(item, ast.Constant) and isinstance(item.value, str) and "=" in item.value:
        key, _, value = item.value.partition("=")
        return framework_site.Entry(key, Setting(key, _typed(value), True, rel, item.lineno, key, value, "hydra-override"))
    if isinstance(item, ast.JoinedStr) and item.values and isinstance(first := item.values[0], ast.Constant) \
            and "=" in str(first.value):
        key, _, rest = str(first.value).partition("=")
        if len(item.values) == 1:
            return framework_site.Entry(key, Setting(key, _typed(rest), True, rel, item.lineno, key, rest, "hydra-override"))
        return framework_site.Entry(key, Setting(key, None, False, rel, item.lineno, key, raw, "hydra-override",
                                                 note=f"{raw} is filled in at run time"))
    return None


def _imports_verl(tree) -> bool:
    return any(isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] == "verl" or
               isinstance(n, ast.Import) and any(a.name.split(".")[0] == "verl" for a in n.names) for n in ast.walk(tree))


def _callee(f) -> str:
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
        return f"{f.value.id}.{f.attr}"
    return f.id if isinstance(f, ast.Name) else ""
