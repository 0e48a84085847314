"""Keyword arguments of a Python call as site settings: each value resolved (engine/scan/
python_values.py) with its position for edits, `**spread` mappings followed entry by entry —
through the names the flow tracks (engine/scan/python_flow.py) — and entries set only under an
undecided condition kept apart as conditional, never read as set."""
from __future__ import annotations

import ast

from vllm_kb.engine.scan.python_flow import Item, TrackedDict
from vllm_kb.engine.scan.python_values import Unresolved
from vllm_kb.engine.scan.site import Setting, Site


def setting(resolver, name, node, rel, text, key, item=None) -> Setting:
    """`item` spans the whole `key=value` / `"key": value` entry (start node, end node)."""
    raw = resolver.lines.segment(node) or ast.unparse(node)
    pos = {"value": resolver.lines.span(node)}
    if item is not None:
        first, last = item
        pos["item"] = (resolver.lines.offset(first.lineno, first.col_offset), resolver.lines.offset(last.end_lineno, last.end_col_offset))
    try:
        resolver.assumed = resolver.from_env = None
        value = resolver.value(node)
        if resolver.from_env:  # the value is the env file's: a fix belongs there, not in the code
            pos["from_env"] = resolver.from_env
        elif resolver.assumed and not isinstance(node, ast.Constant):
            # the call passes on what a caller, a parameter's default, argparse or the environment
            # gives: a literal written here would silently override every one of them
            pos["from_default"] = resolver.assumed
        return Setting(name, value, value is not None, rel, node.lineno, key, raw, "python-call", resolver.assumed, pos=pos)
    except Unresolved as u:
        return Setting(name, None, False, rel, node.lineno, key, raw, "python-call", u.why or f"`{raw}` is not a literal", pos=pos)
    except RecursionError:
        return Setting(name, None, False, rel, node.lineno, key, raw, "python-call", "too deep", pos=pos)


def place(ctx, site: Site, s: Setting, version: str) -> None:
    if s.name == "model":
        site.model = s
        return
    entry = ctx.catalog.arg(s.name)
    if entry is None or not ctx.catalog.is_engine_arg(s.name):
        s.known = False
        site.unknown[s.name] = s
        return
    s.known = entry.exists(version)
    if s.resolved and entry.field("type", version) == "float" and isinstance(s.value, int) and not isinstance(s.value, bool):
        s.value = float(s.value)
    site.set(s)


def conditional(site: Site, key: str, why: str, rel: str, line: int) -> None:
    """An entry the code sets only under a condition the reader cannot decide."""
    site.opaque.append({"code": "conditional", "what": f"{key} ({why})", "where": f"{rel}:{line}"})


def place_items(ctx, site: Site, resolver, d: TrackedDict, rel: str, text: str, version: str, line: int) -> None:
    """The entries of a tracked mapping, each where it is written."""
    for key, it in d.items.items():
        place_item(ctx, site, resolver, key, it, rel, text, version, line)
    for what in d.unknown:
        site.opaque.append({"code": "spread", "what": what, "where": f"{rel}:{line}"})


def place_item(ctx, site: Site, resolver, key: str, it: Item, rel: str, text: str, version: str, line: int) -> None:
    if it.uncertain:
        conditional(site, key, it.uncertain, rel, it.node.lineno if it.node is not None else line)
        return
    if it.node is None:
        place(ctx, site, Setting(key, None, False, rel, line, key, "", "python-call", "set at run time"), version)
        return
    place(ctx, site, setting(resolver, key, it.node, rel, text, key, it.span), version)


def spread(ctx, site, resolver, node, rel, text, version, by_id, absorbed) -> None:
    """`**x` in the call: a mapping followed entry by entry."""
    # **asdict(engine_args) / **vars(engine_args) where engine_args = EngineArgs(...)
    if isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute)) and len(node.args) == 1:
        fname = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
        arg = node.args[0]
        if fname in ("asdict", "vars") and isinstance(arg, ast.Name):
            bound = resolver.scope.lookup(arg.id)
            if isinstance(bound, ast.Call) and id(bound) in by_id:
                absorbed.add(id(bound))
                for kw in bound.keywords:
                    if kw.arg is None:
                        spread(ctx, site, resolver, kw.value, rel, text, version, by_id, absorbed)
                    else:
                        place(ctx, site, setting(resolver, kw.arg, kw.value, rel, text, kw.arg, (kw, kw)), version)
                if bound.args and site.model is None:
                    site.model = setting(resolver, "model", bound.args[0], rel, text, "")
                return
    # a mapping the flow tracks, or a literal one: one setting per entry, each with its own position
    flow = resolver.flow
    tracked = flow._container(node) if flow is not None else None
    if tracked is None and isinstance(node, ast.Name):
        bound = resolver.scope.lookup(node.id)
        if isinstance(bound, (ast.Dict, ast.Call)):
            from vllm_kb.engine.scan.python_flow import Flow
            tracked = Flow([], resolver)._container(bound)
    elif tracked is None and isinstance(node, (ast.Dict, ast.Call)):
        from vllm_kb.engine.scan.python_flow import Flow
        tracked = Flow([], resolver)._container(node)
    if isinstance(tracked, TrackedDict):
        place_items(ctx, site, resolver, tracked, rel, text, version, node.lineno)
        return
    try:
        value = resolver.value(node)
    except Unresolved:
        site.opaque.append({"code": "spread", "what": "**" + (resolver.lines.segment(node) or ast.unparse(node)), "where": f"{rel}:{node.lineno}"})
        return
    if not isinstance(value, dict):
        site.opaque.append({"code": "not-mapping", "what": "**" + ast.unparse(node), "where": f"{rel}:{node.lineno}"})
        return
    for k, v in value.items():
        place(ctx, site, Setting(str(k), v, v is not None, rel, node.lineno, str(k), repr(v), "python-call"), version)
