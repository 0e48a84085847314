"""EngineArgs a module's own function builds and returns, followed to the caller that builds the
engine from them: `def make_args(): return EngineArgs(…)`, then `args = make_args()`,
`args.tensor_parallel_size = 8`, `LLM(**asdict(args))`. The function is followed only where it
is one module-level definition of that name whose body ends in its only `return`, and that return
hands back the EngineArgs call itself or the name its own top level bound to it once. Anything
else (a return in a branch, a name bound twice, a method, an import) leaves the spread unread, as
before."""
from __future__ import annotations

import ast

from vllm_kb.engine.scan.site import Site


def returned(tree: ast.Module, call: ast.Call, by_id: dict, classes: tuple[str, ...]) -> ast.Call | None:
    """The EngineArgs call (one of `by_id`, the module's engine calls) that the function `call` calls returns."""
    if not isinstance(call.func, ast.Name):
        return None
    defs = [st for st in tree.body if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)) and st.name == call.func.id]
    if len(defs) != 1 or not defs[0].body:
        return None
    fn = defs[0]
    last = fn.body[-1]
    returns = [n for n in ast.walk(fn) if isinstance(n, ast.Return)]
    if not isinstance(last, ast.Return) or returns != [last] or last.value is None:
        return None  # a function that may return early, or elsewhere
    value: ast.expr | None = last.value
    if isinstance(value, ast.Name):
        binds = [st for st in fn.body[:-1] if _binds(st, value.id)]
        if len(binds) != 1 or not isinstance(binds[0], (ast.Assign, ast.AnnAssign)) or _stored_deeper(fn, value.id, binds[0]):
            return None
        value = binds[0].value
    if isinstance(value, ast.Call) and id(value) in by_id and getattr(value.func, "id", getattr(value.func, "attr", "")) in classes:
        return value
    return None


def adopt(site: Site, made: Site, spread: str) -> None:
    """The returned EngineArgs' settings (its keywords and the function's own sets on it) become the engine
    call's, under what that call names itself; the spread they came through is read, no longer opaque."""
    for name, s in made.settings.items():
        if name not in site.settings:
            site.set(s)
    if site.model is None and made.model is not None:
        site.model = made.model
    site.opaque = [o for o in site.opaque if not (o.get("code") == "spread" and o.get("what") == spread)]


def _binds(st: ast.stmt, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, (ast.Store, ast.Del)) for n in ast.walk(st))


def _stored_deeper(fn: ast.AST, name: str, top: ast.stmt) -> bool:
    """The name bound anywhere in the function other than by its one top-level assignment."""
    inside = {id(n) for n in ast.walk(top)}
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, (ast.Store, ast.Del)) and id(n) not in inside
               for n in ast.walk(fn))
