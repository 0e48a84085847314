"""`os.environ` as a Python file sets it for the engines it builds: `os.environ["X"] = …`,
`setdefault`, `update({…})`. An assignment a run may skip (under an `if`, a loop, a `match` case or
an `except`) leaves the variable one of two values, which the checks must not take as set. And
what `load_dotenv()` puts there from the `.env` it reads (engine/scan/envfile.py)."""
from __future__ import annotations

import ast

from vllm_kb.engine.scan import envfile
from vllm_kb.engine.scan.python_scope import is_main_guard
from vllm_kb.engine.scan.python_values import _is_environ, walk
from vllm_kb.engine.scan.site import Setting


_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")


def _conditional_spans(tree: ast.Module) -> list[tuple[int, int]]:
    """Line spans a run may skip: the branches of an `if` (not the `__main__` guard), a loop's
    body, a `match` case, a try's `except`/`else`. Statements only: expressions are not walked."""
    spans: list[tuple[int, int]] = []
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        skippable: tuple[str, ...] = ()
        if isinstance(node, ast.If) and not is_main_guard(node):
            skippable = ("body", "orelse")
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            skippable = ("body", "orelse")
        elif isinstance(node, ast.Try):
            skippable = ("handlers", "orelse")
        elif isinstance(node, ast.Match):
            skippable = ("cases",)
        for name in _BLOCKS:
            block = getattr(node, name, None)
            if not isinstance(block, list) or not block:
                continue
            if name in skippable:
                spans.append((block[0].lineno, getattr(block[-1], "end_lineno", None) or block[-1].lineno))
            for child in block:
                if isinstance(child, ast.ExceptHandler):
                    stack.extend(child.body)
                elif isinstance(child, ast.match_case):
                    stack.extend(child.body)
                elif isinstance(child, ast.stmt):
                    stack.append(child)
    return spans


def assignments(tree: ast.Module, rel: str) -> dict[str, Setting]:
    env: dict[str, Setting] = {}
    spans: list[tuple[int, int]] | None = None
    # a call that is a statement of its own (`os.environ.setdefault(…)`): a removal takes it whole
    statements = {id(n.value): n for n in walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Call)}
    for node in walk(tree):
        found: dict[str, Setting] = {}
        # os.environ["X"] = "1", os.environ.setdefault("X", "1"), os.environ.update({...})
        _env_assignments_plain(node, found, rel, statements)
        if not found:
            continue
        if spans is None:
            spans = _conditional_spans(tree)
        line = getattr(node, "lineno", 0)
        if any(a <= line <= b for a, b in spans):
            _conditional_env(found, env, rel)
        else:
            env.update(found)
    return env


def _conditional_env(found: dict[str, Setting], env: dict[str, Setting], rel: str) -> None:
    """Assignments a run may skip: each variable is one of its value or what it was before,
    which the checks must treat as unknown (vLLM's lmcache example sets VLLM_USE_V1=0 only for
    `--version v0`)."""
    for name, got in found.items():
        env[name] = Setting(name, None, False, rel, got.line, name, got.raw, "python-call", "set only under a condition")


def _env_assignments_plain(node: ast.AST, env: dict[str, Setting], rel: str, statements: dict | None = None) -> None:
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        t = node.targets[0]
        if isinstance(t, ast.Subscript) and _is_environ(t.value) and isinstance(t.slice, ast.Constant) and isinstance(t.slice.value, str):
            env[t.slice.value] = _env_value(t.slice.value, node.value, rel, stmt=node)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and _is_environ(node.func.value):
        stmt = (statements or {}).get(id(node))
        if node.func.attr == "setdefault" and len(node.args) == 2 and isinstance(node.args[0], ast.Constant):
            env[str(node.args[0].value)] = _env_value(str(node.args[0].value), node.args[1], rel, stmt=stmt)
        elif node.func.attr == "update" and node.args and isinstance(node.args[0], ast.Dict):
            for k, v in zip(node.args[0].keys, node.args[0].values):
                if isinstance(k, ast.Constant):
                    env[str(k.value)] = _env_value(str(k.value), v, rel, item=(k, v))


def _span(node: ast.AST) -> list[int]:
    return [node.lineno, node.col_offset, node.end_lineno, node.end_col_offset]  # type: ignore[attr-defined]


def _env_value(name: str, node: ast.expr, rel: str, stmt: ast.AST | None = None, item: tuple | None = None) -> Setting:
    """`pos` says where a fix writes: the value's own span, and the statement (or dict entry)
    a removal takes (lines and columns; engine/fix/text_edits.py turns them into offsets)."""
    pos = {"py_value": _span(node)}
    if stmt is not None:
        pos["py_stmt"] = _span(stmt)
    if item is not None:
        pos["py_item"] = [item[0].lineno, item[0].col_offset, item[1].end_lineno, item[1].end_col_offset]
    if isinstance(node, ast.Constant):
        return Setting(name, str(node.value), True, rel, node.lineno, name, ast.unparse(node), "python-call", pos=pos)
    return Setting(name, None, False, rel, node.lineno, name, ast.unparse(node), "python-call", "not a literal", pos=pos)


def dotenv_loaded(ctx, rel: str, tree: ast.Module, text: str) -> dict[str, envfile.EnvValue]:
    """What the module's `load_dotenv()` calls put in os.environ (an existing variable wins, as
    python-dotenv's own default `override=False` has it; the first file loaded wins likewise)."""
    if "dotenv" not in text:
        return {}
    out: dict[str, envfile.EnvValue] = {}
    for node in walk(tree):
        if isinstance(node, ast.Call) and envfile.dotenv_call(node.func) == "load_dotenv":
            target = envfile.dotenv_file(ctx, rel, node)
            for k, v in (envfile.load(ctx, target, braces_only=True) or {}).items() if target else ():
                out.setdefault(k, v)
    return out
