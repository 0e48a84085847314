"""The only module that knows CEL. Backend: cel-python's interpreted runner (pure Python,
runs wherever vLLM runs). Everything else sees `compile()`, `Activation` and `Outcome`.

Quirks handled here (measured, see STYLE.md): facts go through json_to_cel; int/double never
compare in cel-python, so numeric facts become doubles and the comparison and arithmetic
operators promote ints; results are CEL types, turned into Python bools; a missing fact
raises, which becomes "unknown", never a pass or a fail. CompiledRunner is not used: it
failed on some expressions and broke the interpreted runner in the same process.
"""
from __future__ import annotations

import operator
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable

from . import versions

MACROS = frozenset({"all", "exists", "exists_one", "map", "filter"})
BUILTIN_FUNCTIONS = frozenset(
    {"has", "size", "int", "uint", "double", "string", "bool", "bytes", "type", "duration",
     "timestamp", "contains", "startsWith", "endsWith", "matches", "dyn"}
) | MACROS


class CelSyntaxError(ValueError):
    pass


@dataclass(frozen=True)
class Outcome:
    value: bool | None  # None: unknown
    missing: tuple[str, ...] = ()
    error: str | None = None

    @property
    def unknown(self) -> bool:
        return self.value is None


def _version_cmp(a, b) -> int:
    va, vb = versions.parse(str(a)), versions.parse(str(b))
    return (va > vb) - (va < vb)


# Functions a predicate may call beyond CEL's own; `kb validate` rejects any other name.
_PY_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "version_ge": lambda a, b: _version_cmp(a, b) >= 0,
    "version_lt": lambda a, b: _version_cmp(a, b) < 0,
    "version_in": lambda a, spec: versions.SpecifierSet(str(spec)).contains(str(a)),
}
REGISTERED_FUNCTIONS = frozenset(_PY_FUNCTIONS)


class _Backend:
    """Built once per process, on first use: the grammar costs ~100 ms."""

    def __init__(self) -> None:
        limit = sys.getrecursionlimit()
        import celpy
        from celpy import celtypes, evaluation

        self.celpy, self.types = celpy, celtypes
        self.env = celpy.Environment()
        sys.setrecursionlimit(max(limit, sys.getrecursionlimit()))
        T = celtypes

        def promote(a, b):
            if isinstance(a, T.DoubleType) and _is_int(b):
                return a, T.DoubleType(b)
            if isinstance(b, T.DoubleType) and _is_int(a):
                return T.DoubleType(a), b
            return a, b

        def _is_int(x):
            return isinstance(x, (T.IntType, T.UintType)) and not isinstance(x, T.BoolType)

        def numeric(f):
            def g(a, b):
                out = f(*promote(a, b))
                # Python arithmetic on CEL values can hand back plain floats/ints
                if isinstance(out, float):
                    return T.DoubleType(out)
                if isinstance(out, int) and not isinstance(out, (bool, T.IntType, T.BoolType)):
                    return T.IntType(out)
                return out
            return g

        ops = {
            "_<_": evaluation.bool_lt, "_<=_": evaluation.bool_le, "_>_": evaluation.bool_gt,
            "_>=_": evaluation.bool_ge, "_==_": evaluation.bool_eq, "_!=_": evaluation.bool_ne,
            "_+_": operator.add, "_-_": operator.sub, "_*_": operator.mul, "_/_": operator.truediv,
        }
        self.functions: dict[str, Callable] = {k: numeric(f) for k, f in ops.items()}

        def in_(a, b):
            if isinstance(b, T.ListType) and (isinstance(a, T.DoubleType) or _is_int(a)):
                return T.BoolType(any((isinstance(x, T.DoubleType) or _is_int(x)) and float(x) == float(a) for x in b))
            return evaluation.operator_in(a, b)

        self.functions["_in_"] = in_
        for name, fn in _PY_FUNCTIONS.items():
            self.functions[name] = _wrap_py(fn, T)

    def to_cel(self, facts: dict) -> Any:
        return self.celpy.json_to_cel(_normalise(facts))


def _wrap_py(fn, T):
    def g(*args):
        return T.BoolType(bool(fn(*[str(a) if isinstance(a, T.StringType) else a for a in args])))
    return g


def _normalise(value):
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, dict):
        return {str(k): _normalise(v) for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)):
        return [_normalise(v) for v in value if v is not None]
    return str(value)


@lru_cache(maxsize=1)
def _backend() -> _Backend:
    return _Backend()


class Activation:
    """Facts converted to CEL once, evaluated against many predicates."""

    def __init__(self, facts: dict):
        self.facts = facts
        self._cel = None

    @property
    def cel(self):
        if self._cel is None:
            self._cel = _backend().to_cel(self.facts)
        return self._cel


@dataclass
class Predicate:
    source: str
    paths: frozenset[tuple[str, ...]]
    functions: frozenset[str]
    _program: Any = field(default=None, repr=False)

    def _run(self, activation: "Activation | dict"):
        """(CEL result, None) or (None, unknown Outcome)."""
        act = activation if isinstance(activation, Activation) else Activation(activation)
        be = _backend()
        if self._program is None:
            self._program = be.env.program(be.env.compile(self.source), functions=be.functions)
        try:
            result = self._program.evaluate(act.cel)
        except Exception as e:  # cel-python raises CELEvalError and also plain KeyError/TypeError
            return None, self._unknown(act.facts, e)
        if isinstance(result, Exception):  # CELEvalError can come back as a value
            return None, self._unknown(act.facts, result)
        return result, None

    def evaluate(self, activation: "Activation | dict") -> Outcome:
        result, unknown = self._run(activation)
        if unknown is not None:
            return unknown
        if not isinstance(result, _backend().types.BoolType):
            return Outcome(None, error=f"predicate gave {type(result).__name__}, not a bool")
        return Outcome(bool(result))

    def compute(self, activation: "Activation | dict") -> tuple[Any, Outcome | None]:
        """The expression's value as plain Python (for `value_from`), or an unknown Outcome."""
        result, unknown = self._run(activation)
        if unknown is not None:
            return None, unknown
        return _to_python(result, _backend().types), None

    def _unknown(self, facts: dict, err: Exception) -> Outcome:
        missing = tuple(sorted(".".join(p) for p in self.paths if not _present(facts, p)))
        msg = str(err.args[0]) if getattr(err, "args", None) else str(err)
        if missing:
            return Outcome(None, missing=missing)
        return Outcome(None, error=msg[:200])


def _to_python(v, T):
    if isinstance(v, T.BoolType):
        return bool(v)
    if isinstance(v, (T.IntType, T.UintType)):
        return int(v)
    if isinstance(v, T.DoubleType):
        f = float(v)
        return int(f) if f.is_integer() else f
    if isinstance(v, T.StringType):
        return str(v)
    if isinstance(v, T.ListType):
        return [_to_python(x, T) for x in v]
    if isinstance(v, T.MapType):
        return {str(k): _to_python(x, T) for k, x in v.items()}
    return v


def _present(facts: dict, path: tuple[str, ...]) -> bool:
    cur: Any = facts
    for part in path:
        if not isinstance(cur, dict) or cur.get(part) is None:
            return False
        cur = cur[part]
    return True


@lru_cache(maxsize=None)
def compile(source: str) -> Predicate:
    be = _backend()
    try:
        tree = be.env.compile(source)
    except Exception as e:
        raise CelSyntaxError(str(e).splitlines()[0] if str(e) else "syntax error") from None
    paths: set[tuple[str, ...]] = set()
    funcs: set[str] = set()
    _collect(tree, frozenset(), paths, funcs)
    return Predicate(source=source, paths=frozenset(paths), functions=frozenset(funcs))


def _collect(node, bound: frozenset[str], paths: set, funcs: set) -> None:
    from lark import Tree, Token

    if not isinstance(node, Tree):
        return
    kind = node.data
    if kind == "member_dot":
        chain = _chain(node)
        if chain is not None:
            if chain[0] not in bound:
                paths.add(tuple(chain))
            return
    if kind == "member_dot_arg":
        target, method, *rest = node.children
        method_name = str(method)
        args = rest[0].children if rest and isinstance(rest[0], Tree) else []
        if method_name in MACROS and args:
            var = _ident(args[0])
            _collect(target, bound, paths, funcs)
            inner = bound | {var} if var else bound
            for a in args[1:]:
                _collect(a, inner, paths, funcs)
            return
        funcs.add(method_name)
        _collect(target, bound, paths, funcs)
        for a in args:
            _collect(a, bound, paths, funcs)
        return
    if kind == "ident_arg":
        name, *rest = node.children
        funcs.add(str(name))
        for child in rest:
            _collect(child, bound, paths, funcs)
        return
    if kind == "ident":
        name = str(node.children[0])
        if name not in bound and name not in ("true", "false", "null"):
            paths.add((name,))
        return
    for child in node.children:
        if isinstance(child, Tree):
            _collect(child, bound, paths, funcs)
        elif isinstance(child, Token):
            continue


def _chain(node) -> list[str] | None:
    """`a.b.c` as ['a','b','c'] when it is a plain dotted path from an identifier."""
    from lark import Tree

    parts: list[str] = []
    cur = node
    while True:
        if isinstance(cur, Tree) and cur.data == "member":
            cur = cur.children[0]
            continue
        if isinstance(cur, Tree) and cur.data == "member_dot":
            parts.append(str(cur.children[1]))
            cur = cur.children[0]
            continue
        if isinstance(cur, Tree) and cur.data == "primary":
            cur = cur.children[0]
            continue
        if isinstance(cur, Tree) and cur.data == "ident":
            parts.append(str(cur.children[0]))
            return list(reversed(parts))
        return None


def _ident(expr) -> str | None:
    from lark import Tree

    cur = expr
    while isinstance(cur, Tree) and len(cur.children) == 1 and cur.data != "ident":
        cur = cur.children[0]
    if isinstance(cur, Tree) and cur.data == "ident":
        return str(cur.children[0])
    return None
