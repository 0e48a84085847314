"""Python values followed statically: module constants and assignments in scope, `os.environ.get`
defaults, simple arithmetic and f-strings; what cannot be followed stays `Unresolved`."""
from __future__ import annotations

import ast
import operator
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from vllm_kb.engine.kb.textpos import LineIndex


class Unresolved(Exception):
    def __init__(self, node: ast.AST, why: str = ""):
        self.node = node
        self.why = why


_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv, ast.Div: operator.truediv}


@dataclass
class Scope:
    names: dict[str, ast.AST] = field(default_factory=dict)
    parent: "Scope | None" = None

    def lookup(self, name: str):
        s: Scope | None = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None


def _assignments(body: list[ast.stmt]) -> dict[str, ast.AST]:
    """Names bound exactly once in a block, by a plain `x = <expr>` at its top level."""
    values: dict[str, ast.AST] = {}
    for stmt in body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            values[stmt.targets[0].id] = stmt.value
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
            values[stmt.target.id] = stmt.value
    counts: Counter[str] = Counter()
    for stmt in body:
        for node in _walk_no_defs(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                counts[node.id] += 1
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                counts[node.name] += 1
    return {k: v for k, v in values.items() if counts[k] == 1}


class _Resolver:
    def __init__(self, scope: Scope, calls: dict[int, ast.Call], lines: LineIndex):
        self.scope = scope
        self.calls = calls  # id(call node) of target calls, for **asdict(x)
        self.lines = lines
        self.depth = 0
        self.assumed: str | None = None  # set when a value is only a default (os.environ.get)

    def value(self, node: ast.AST) -> Any:
        self.depth += 1
        try:
            if self.depth > 50:
                raise Unresolved(node, "too deep")
            return self._value(node)
        finally:
            self.depth -= 1

    def _value(self, node):
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            if node.id in ("True", "False", "None"):
                return {"True": True, "False": False, "None": None}[node.id]
            target = self.scope.lookup(node.id)
            if target is None:
                raise Unresolved(node, f"`{node.id}` is not a literal constant here")
            return self.value(target)
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            return [self.value(e) for e in node.elts]
        if isinstance(node, ast.Dict):
            out = {}
            for k, v in zip(node.keys, node.values):
                if k is None:
                    sub = self.value(v)
                    if not isinstance(sub, dict):
                        raise Unresolved(v)
                    out.update(sub)
                else:
                    out[self.value(k)] = self.value(v)
            return out
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            v = self.value(node.operand)
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                return -v if isinstance(node.op, ast.USub) else v
        if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
            a, b = self.value(node.left), self.value(node.right)
            if all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b)) and abs(a) < 1e15 and abs(b) < 1e15:
                return _BINOPS[type(node.op)](a, b)
            if isinstance(a, str) and isinstance(b, str) and isinstance(node.op, ast.Add):
                return a + b
        env = _env_default(node)
        if env is not None:
            name, default = env
            self.assumed = f"default of os.environ.get({name!r})"
            return self.value(default)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" and not node.args:
            out = {}
            for kw in node.keywords:
                if kw.arg is None:
                    sub = self.value(kw.value)
                    if not isinstance(sub, dict):
                        raise Unresolved(kw.value)
                    out.update(sub)
                else:
                    out[kw.arg] = self.value(kw.value)
            return out
        raise Unresolved(node)


def _walk_no_defs(node: ast.AST):
    """ast.walk that yields function definitions but does not descend into them."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(n))))


def _env_default(node):
    """`os.environ.get("X", d)` / `os.getenv("X", d)`: (name, default node), else None."""
    if not (isinstance(node, ast.Call) and len(node.args) == 2 and isinstance(node.args[0], ast.Constant)):
        return None
    f = node.func
    if isinstance(f, ast.Attribute) and ((f.attr == "get" and _is_environ(f.value)) or
                                         (f.attr == "getenv" and isinstance(f.value, ast.Name) and f.value.id == "os")):
        return str(node.args[0].value), node.args[1]
    return None


def _is_environ(node) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "environ" and isinstance(node.value, ast.Name) and node.value.id == "os"
