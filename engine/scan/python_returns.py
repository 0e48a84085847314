"""A command a helper function of the same file builds and returns: `subprocess.run(build(m, 3))`
with `def build(model, tp): cmd = ["vllm", "serve", model]; cmd += [...]; return cmd`, or one that
returns an f-string for `os.system`. The call's arguments the code fixes are put in place of the
parameters (a copy of the function, never the file's tree), the function's own statements are
followed up to its one `return` at the end of its body, and the returned list or string is read
there. One level only: a helper that calls another helper is not followed; a function with more
than one `return` (which one runs is a run-time matter) is not read."""
from __future__ import annotations

import ast
import copy

from vllm_kb.engine.scan.python_flow import Flow
from vllm_kb.engine.scan.python_scope import ParamDefault, function_scope
from vllm_kb.engine.scan.python_values import Unresolved, _Resolver


def helper_call(node, r) -> tuple[ast.expr, _Resolver] | None:
    """(the returned expression, a resolver inside the bound copy of the function) for a call of
    a top-level function of this file; None otherwise."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) or r.tree is None:
        return None
    fn = next((s for s in r.tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == node.func.id), None)
    if fn is None or not fn.body or not isinstance(fn.body[-1], ast.Return) or fn.body[-1].value is None:
        return None
    if sum(isinstance(n, ast.Return) for n in ast.walk(fn)) != 1:
        return None
    got = _bind(fn, node, r)
    if got is None:
        return None
    bound, unknown = got
    root = r.scope
    while root.parent is not None:
        root = root.parent
    scope = function_scope(bound, root)
    for name in unknown:  # the call gives it, the code does not fix it: unknown, not its default
        scope.names[name] = ParamDefault(None, name)
    sub = _Resolver(scope, {}, r.lines, links=r.links, cls=None, env=r.env, tree=r.tree)
    sub.spawners = r.spawners
    sub.env_where, sub.env_unknown = r.env_where, r.env_unknown
    try:
        sub.flow = Flow([(bound.body, len(bound.body) - 1)], sub)
    except RecursionError:
        return None
    return bound.body[-1].value, sub


def _bind(fn, call: ast.Call, r):
    """A copy of `fn` whose parameters the call gives known scalars read as those constants, and
    the parameters it gives values the code does not fix."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    names = [a.arg for a in fn.args.posonlyargs + fn.args.args]
    given: dict[str, ast.expr] = dict(zip(names, call.args))
    given.update({k.arg: k.value for k in call.keywords if k.arg})
    known: dict[str, str | int | float | bool | None] = {}
    for name, expr in given.items():
        try:
            v = r.value(expr)
        except Unresolved:
            continue
        if isinstance(v, (str, int, float, bool)) or v is None:
            known[name] = v
    reassigned = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    known = {k: v for k, v in known.items() if k not in reassigned}
    given = {k: v for k, v in given.items() if k not in reassigned}  # followed through the body instead
    out = copy.deepcopy(fn)
    _Substitute(known).visit(out)
    return out, set(given) - set(known)


class _Substitute(ast.NodeTransformer):
    def __init__(self, known: dict[str, str | int | float | bool | None]):
        self.known = known

    def visit_Name(self, node: ast.Name):
        if isinstance(node.ctx, ast.Load) and node.id in self.known:
            return ast.copy_location(ast.Constant(self.known[node.id]), node)
        return node

    def visit_FunctionDef(self, node):  # a nested function has names of its own
        return node if getattr(self, "_inside", False) else self._outer(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def _outer(self, node):
        self._inside = True
        node.body = [self.visit(s) for s in node.body]
        return node
