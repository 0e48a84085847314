"""`os.environ` as a Python file sets it for the engines it builds: `os.environ["X"] = …`,
`setdefault`, `update({…})`. An assignment a run may skip (under an `if`, a loop, a `match` case or
an `except`) leaves the variable one of two values, which the checks must not take as set."""
from __future__ import annotations

import ast

from vllm_kb.engine.scan.python_values import _is_environ, walk
from vllm_kb.engine.scan.site import Setting


def _main_guard(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Compare) and isinstance(t.left, ast.Name) and t.left.id == "__name__"
            and len(t.comparators) == 1 and isinstance(t.comparators[0], ast.Constant) and t.comparators[0].value == "__main__")


def _conditional_nodes(tree: ast.Module) -> set[int]:
    """ids of the nodes a run may skip: under an `if` (not the `__main__` guard), a loop, a
    `match` case or an `except`/`else` of a try."""
    out: set[int] = set()
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    while stack:
        node, cond = stack.pop()
        if cond:
            out.add(id(node))
        for name, value in ast.iter_fields(node):
            children = value if isinstance(value, list) else [value]
            inner = cond
            if isinstance(node, ast.If) and not _main_guard(node) and name in ("body", "orelse") or isinstance(node, (ast.For, ast.AsyncFor, ast.While, ast.Match)) and name in ("body", "orelse", "cases") or isinstance(node, ast.Try) and name in ("handlers", "orelse") or isinstance(node, ast.IfExp) and name in ("body", "orelse"):
                inner = True
            stack.extend((c, inner) for c in children if isinstance(c, ast.AST))
    return out


def assignments(tree: ast.Module, rel: str) -> dict[str, Setting]:
    env: dict[str, Setting] = {}
    conditional = _conditional_nodes(tree)
    for node in walk(tree):
        if id(node) in conditional:
            _conditional_env(node, env, rel)
            continue
        # os.environ["X"] = "1", os.environ.setdefault("X", "1"), os.environ.update({...})
        _env_assignments_plain(node, env, rel)
    return env


def _conditional_env(node: ast.AST, env: dict[str, Setting], rel: str) -> None:
    """An assignment a run may skip: the variable is one of its value or what it was before,
    which the checks must treat as unknown (vLLM's lmcache example sets VLLM_USE_V1=0 only for
    `--version v0`)."""
    found: dict[str, Setting] = {}
    _env_assignments_plain(node, found, rel)
    for name, got in found.items():
        env[name] = Setting(name, None, False, rel, got.line, name, got.raw, "python-call", "set only under a condition")


def _env_assignments_plain(node: ast.AST, env: dict[str, Setting], rel: str) -> None:
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        t = node.targets[0]
        if isinstance(t, ast.Subscript) and _is_environ(t.value) and isinstance(t.slice, ast.Constant) and isinstance(t.slice.value, str):
            env[t.slice.value] = _env_value(t.slice.value, node.value, rel)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and _is_environ(node.func.value):
        if node.func.attr == "setdefault" and len(node.args) == 2 and isinstance(node.args[0], ast.Constant):
            env[str(node.args[0].value)] = _env_value(str(node.args[0].value), node.args[1], rel)
        elif node.func.attr == "update" and node.args and isinstance(node.args[0], ast.Dict):
            for k, v in zip(node.args[0].keys, node.args[0].values):
                if isinstance(k, ast.Constant):
                    env[str(k.value)] = _env_value(str(k.value), v, rel)


def _env_value(name: str, node: ast.expr, rel: str) -> Setting:
    if isinstance(node, ast.Constant):
        return Setting(name, str(node.value), True, rel, node.lineno, name, ast.unparse(node), "python-call")
    return Setting(name, None, False, rel, node.lineno, name, ast.unparse(node), "python-call", "not a literal")
