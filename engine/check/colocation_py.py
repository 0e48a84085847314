"""Whether two engines built in one Python file are alive in the process at the same time.

Two `LLM(...)` calls of a file are no evidence by themselves: vLLM's own examples build one engine
per function (a demo chosen on the command line, a prefill and a decode process each given their
own CUDA_VISIBLE_DEVICES), or drop the first (`del llm`) before building the second. Only calls in
the same scope, on the same path through it, with the first one's engine still referenced, hold
GPU memory together.
"""
from __future__ import annotations

import ast
from functools import lru_cache

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Module)


@lru_cache(maxsize=8)  # the engines are compared file by file (colocation.annotate): one file at a time is in use
def _tree(text: str) -> tuple[dict[int, ast.Call], dict[int, ast.AST]] | None:
    """The leftmost call that starts on each line, and every node's parent: one walk per file."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    parents: dict[int, ast.AST] = {}
    calls: dict[int, ast.Call] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            best = calls.get(node.lineno)
            # the engine's own call, else the leftmost: `a = run(LLM(...), x)` builds at LLM(
            if best is None or (_builds(node), -node.col_offset) > (_builds(best), -best.col_offset):
                calls[node.lineno] = node
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    return calls, parents


def _builds(call: ast.Call) -> bool:
    f = call.func
    name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
    return name == "LLM" or name.endswith("Engine") or name in ("from_engine_args", "from_vllm_config")


def _chain(node: ast.AST, parents: dict[int, ast.AST]) -> list[tuple[ast.AST, str]]:
    """(ancestor, the field of it the path goes through), innermost first, up to the scope."""
    out: list[tuple[ast.AST, str]] = []
    cur = node
    while id(cur) in parents:
        parent = parents[id(cur)]
        field = next((name for name, value in ast.iter_fields(parent)
                      if value is cur or (isinstance(value, list) and any(v is cur for v in value))), "")
        out.append((parent, field))
        if isinstance(parent, _SCOPES):
            break
        cur = parent
    return out


def _scope(chain: list[tuple[ast.AST, str]]) -> ast.AST | None:
    return chain[-1][0] if chain else None


def _exclusive(ca: list[tuple[ast.AST, str]], cb: list[tuple[ast.AST, str]]) -> bool:
    """One call in an `if`'s body and the other in its `else` (or in different handlers of a try,
    or different cases of a match): never both on one run."""
    fields_b = {id(n): f for n, f in cb}
    for node, field in ca:
        other = fields_b.get(id(node))
        if other is None:
            continue
        if isinstance(node, (ast.If, ast.IfExp)) and {field, other} == {"body", "orelse"}:
            return True
        if isinstance(node, (ast.Try, ast.Match)) and field != other:
            return True
        if isinstance(node, ast.BoolOp):
            return True
    return False


def _held_name(call: ast.Call, chain: list[tuple[ast.AST, str]], parents: dict[int, ast.AST]) -> str | None | bool:
    """The name the engine is kept under (`llm = LLM(...)`), False when nothing keeps it
    (`LLM(...).generate(...)`), None when kept somewhere the reader does not follow (an attribute,
    a list, a return value)."""
    if not chain:
        return None
    parent, _field = chain[0]
    if isinstance(parent, (ast.Assign, ast.AnnAssign)) and getattr(parent, "value", None) is call:
        targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
        if len(targets) == 1 and isinstance(targets[0], ast.Name):
            return targets[0].id
        return None
    if isinstance(parent, ast.withitem):
        var = parent.optional_vars
        return var.id if isinstance(var, ast.Name) else None
    if isinstance(parent, ast.Expr):
        return False
    if isinstance(parent, ast.Attribute) and isinstance(chain[1][0] if len(chain) > 1 else None, ast.Call):
        return False  # LLM(...).generate(...): gone after the statement
    if isinstance(parent, ast.Call) and _only_used(parent, call, chain[-1][0], parents):
        return False  # get_logprobs(LLM(...), prompts): a function of the file that only calls its methods
    return None


def _only_used(outer: ast.Call, call: ast.Call, scope: ast.AST, parents: dict[int, ast.AST]) -> bool:
    """`outer` is a function of this module that only reads attributes of the parameter the engine
    is passed as (`llm.generate(...)`): it keeps no reference, so the engine goes with the statement."""
    module = scope
    while id(module) in parents:
        module = parents[id(module)]
    if not isinstance(module, ast.Module):
        return False
    if not isinstance(outer.func, ast.Name):
        return False
    fn = next((n for n in module.body if isinstance(n, ast.FunctionDef) and n.name == outer.func.id), None)
    if fn is None:
        return False
    params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
    if call in outer.args:
        i = outer.args.index(call)
        name = params[i] if i < len(params) else None
    else:
        name = next((k.arg for k in outer.keywords if k.value is call), None)
    if name is None or name not in params + [a.arg for a in fn.args.kwonlyargs]:
        return False
    uses = [(parent, node) for parent in ast.walk(fn) for node in ast.iter_child_nodes(parent)
            if isinstance(node, ast.Name) and node.id == name]
    return bool(uses) and all(isinstance(parent, ast.Attribute) and parent.value is node for parent, node in uses) \
        and not any(isinstance(n, (ast.Global, ast.Nonlocal)) for n in ast.walk(fn))


_RELEASING = ("cleanup", "clean_up", "shutdown", "teardown", "release", "destroy", "free", "kill", "delete")


def _releases(call: ast.Call, name: str) -> bool:
    """`cleanup(llm, …)` (vLLM's own tests: a helper that shuts the engine core down and frees the
    memory), `llm.shutdown()`, `llm.llm_engine.engine_core.shutdown()`."""
    f = call.func
    callee = (f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else "").lower()
    if not any(w in callee for w in _RELEASING):
        return False
    if any(isinstance(a, ast.Name) and a.id == name for a in list(call.args) + [k.value for k in call.keywords]):
        return True
    base = f.value if isinstance(f, ast.Attribute) else None
    while isinstance(base, ast.Attribute):
        base = base.value
    return isinstance(base, ast.Name) and base.id == name


def _released_between(scope: ast.AST, name: str, start: int, end: int) -> bool:
    """`del name`, `name = None` or a call that shuts it down between the two calls."""
    for node in ast.walk(scope):
        line = getattr(node, "lineno", 0)
        if not start < line < end:
            continue
        if isinstance(node, ast.Call) and _releases(node, name):
            return True
        if isinstance(node, ast.Delete) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return True
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and node.value.value is None
                and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)):
            return True
    return False


def forget() -> None:
    """Drop the kept trees once a project's engines are compared (a file's tree is about ten
    times its text: vLLM's own tree kept 20 MiB of them to the end of the audit)."""
    _tree.cache_clear()


def alive_together(text: str, first_line: int, second_line: int) -> bool:
    """The engine built at `first_line` is still held when the one at `second_line` is built."""
    if first_line == second_line:
        return False
    first_line, second_line = sorted((first_line, second_line))
    parsed = _tree(text)
    if parsed is None:
        return False
    calls, parents = parsed
    a, b = calls.get(first_line), calls.get(second_line)
    if a is None or b is None:
        return False
    ca, cb = _chain(a, parents), _chain(b, parents)
    if _scope(ca) is not _scope(cb) or _exclusive(ca, cb):
        return False
    held = _held_name(a, ca, parents)
    if held is False:
        return False
    scope = _scope(ca)
    return not (isinstance(held, str) and scope is not None
                and _released_between(scope, held, a.end_lineno or a.lineno, b.lineno))
