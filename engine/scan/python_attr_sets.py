"""Attributes a script sets on the EngineArgs it built before it builds the engine:
`args = AsyncEngineArgs(model_dir)` then `args.tensor_parallel_size = 2` … `AsyncLLMEngine.from_engine_args(args)`.
Read as the site's settings in straight-line order, in the block of the constructor's own statement,
until the name is bound again or handed on whole (the engine built from it, or a function that may
change it). One set inside an `if`, a loop or a `try` may or may not run: it is conditional, and an
earlier value of it unknown; `+=` and a value the reader cannot work out stay unresolved, never a
default. A name that is no engine argument of the release is an attribute the dataclass keeps and
vLLM never reads (no error, no effect): it is left out, and a set one is never a missing option."""
from __future__ import annotations

import ast

from vllm_kb.engine.scan import engine_args_returned
from vllm_kb.engine.scan.python_settings import conditional, setting
from vllm_kb.engine.scan.site import Setting, Site

ENGINE_ARGS = ("EngineArgs", "AsyncEngineArgs")


def read(ctx, site: Site, levels: list, call: ast.Call, resolver, rel: str, text: str, version: str) -> None:
    if not levels:
        return
    block, i = levels[-1]
    name = _bound(block[i], call)
    if name is None:
        return
    for st in block[i + 1:]:
        if _rebinds(st, name):
            return
        if (got := _attr_set(st, name)) is not None:
            attr, node = got
            if isinstance(st, ast.AugAssign):
                raw = resolver.lines.segment(st) or ast.unparse(st)
                s = Setting(attr, None, False, rel, st.lineno, f"{name}.{attr}", raw, "python-call", f"`{raw}` changes the value before it")
            else:
                s = setting(resolver, attr, node, rel, text, f"{name}.{attr}")
            _place(ctx, site, s, version)
            continue
        for attr, line in _sets_inside(st, name):
            if _engine_arg(ctx, attr, version):
                site.settings.pop(attr, None)
                conditional(site, f"{name}.{attr}", "set in a branch, a loop or a try", rel, line)
        if _hands_on(st, name):
            return


def read_spread(ctx, site: Site, call: ast.Call, by_id: dict, resolver, tree: ast.Module, rel: str, text: str,
                version: str, built: dict | None = None, absorbed: set | None = None) -> None:
    """`LLM(**asdict(args))` / `LLM(**vars(args))` where `args = EngineArgs(…)` (its keywords absorbed into the
    call's site by python_settings.spread): the attributes set on `args` before this call are the site's too.
    Where `args = make_args(…)` and the module's function returns the EngineArgs it builds (engine_args_returned),
    that EngineArgs' site (`built`, by call) is this one's: its settings, then the caller's sets."""
    from vllm_kb.engine.scan.python_scope import chain

    for kw in call.keywords:
        v = kw.value
        if kw.arg is not None or not (isinstance(v, ast.Call) and len(v.args) == 1 and isinstance(v.args[0], ast.Name)
                                      and getattr(v.func, "id", getattr(v.func, "attr", None)) in ("asdict", "vars")):
            continue
        bound = resolver.scope.lookup(v.args[0].id)
        made = None
        if isinstance(bound, ast.Call) and id(bound) not in by_id and built is not None and absorbed is not None:
            inner = engine_args_returned.returned(tree, bound, by_id, ENGINE_ARGS)
            made = built.get(id(inner)) if inner is not None else None
            if made is not None:
                engine_args_returned.adopt(site, made, "**" + (resolver.lines.segment(v) or ast.unparse(v)))
                absorbed.add(id(inner))
        if made is not None or (isinstance(bound, ast.Call) and id(bound) in by_id
                                and getattr(bound.func, "id", getattr(bound.func, "attr", "")) in ENGINE_ARGS):
            holders = [fn for fn in ast.walk(tree) if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
                       and fn.lineno < bound.lineno <= (fn.end_lineno or 0)]
            body = max(holders, key=lambda fn: fn.lineno).body if holders else tree.body  # chain stops at a def
            read(ctx, site, chain(body, bound), bound, resolver, rel, text, version)


def _place(ctx, site: Site, s: Setting, version: str) -> None:
    s.pos = {**(s.pos or {}), "attribute": True}  # no `item`: --fix rewrites the value, never the statement
    if s.name == "model":
        site.model = s
        return
    if not _engine_arg(ctx, s.name, version):
        return
    if s.resolved and ctx.catalog.arg(s.name).field("type", version) == "float" and isinstance(s.value, int) \
            and not isinstance(s.value, bool):
        s.value = float(s.value)
    site.set(s)


def _engine_arg(ctx, name: str, version: str) -> bool:
    entry = ctx.catalog.arg(name)
    return entry is not None and ctx.catalog.is_engine_arg(name) and entry.exists(version)


def _bound(st: ast.stmt, call: ast.Call) -> str | None:
    """`args = AsyncEngineArgs(…)` (or annotated): the name the built arguments are bound to."""
    if isinstance(st, ast.Assign) and st.value is call and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
        return st.targets[0].id
    if isinstance(st, ast.AnnAssign) and st.value is call and isinstance(st.target, ast.Name):
        return st.target.id
    return None


def _attr_set(st: ast.stmt, name: str) -> tuple[str, ast.expr] | None:
    if isinstance(st, ast.Assign) and len(st.targets) == 1:
        target, value = st.targets[0], st.value
    elif isinstance(st, (ast.AugAssign, ast.AnnAssign)) and st.value is not None:
        target, value = st.target, st.value
    else:
        return None
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == name:
        return target.attr, value
    return None


def _sets_inside(st: ast.stmt, name: str) -> list[tuple[str, int]]:
    if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return []
    return [(n.attr, n.lineno) for n in ast.walk(st) if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store)
            and isinstance(n.value, ast.Name) and n.value.id == name]


def _rebinds(st: ast.stmt, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, (ast.Store, ast.Del)) for n in ast.walk(st))


def _hands_on(st: ast.stmt, name: str) -> bool:
    """The object itself used other than through an attribute: built into an engine, passed to a
    function that may change it, stored elsewhere."""
    inner = {id(n.value) for n in ast.walk(st) if isinstance(n, ast.Attribute)}
    return any(isinstance(n, ast.Name) and n.id == name and id(n) not in inner for n in ast.walk(st))
