"""The only module that knows CEL. Backend: cel-python's interpreted runner (pure Python,
runs wherever vLLM runs). Everything else sees `compile()`, `Activation` and `Outcome`.

Quirks handled here (measured, see STYLE.md): facts go through json_to_cel; int/double never
compare in cel-python, so numeric facts become doubles and the comparison and arithmetic
operators promote ints; results are CEL types, turned into Python bools; a missing fact
raises, which becomes "unknown", never a pass or a fail. CompiledRunner is not used: it
failed on some expressions and broke the interpreted runner in the same process.
"""
from __future__ import annotations

import json
import operator
import os
import sys
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable

from vllm_kb.engine.kb import versions
from vllm_kb.engine.kb.cel_paths import MACROS, collect, conjuncts


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


def _environment(celpy):
    """celpy.Environment() with lark's LALR tables cached on disk: building them is ~100-150 ms
    of every cold start, loading them ~10 ms. The cache is lark's own (keyed by a hash of the
    grammar, the options, lark's and Python's versions; a stale or broken file is rebuilt),
    written under a temporary name and renamed, in a folder only the user can write."""
    from celpy import celparser

    from vllm_kb.engine.kb import cache

    folder = cache.folder("cel")
    if folder is None or celparser.CELParser.CEL_PARSER is not None:
        return celpy.Environment()
    try:
        import lark

        target = folder / f"cel-grammar-lark{lark.__version__}-py{sys.version_info[0]}{sys.version_info[1]}.cache"
        fresh = not cache.trusted(target)  # a pickle runs code: only the user's own file is loaded
        cache_fn = folder / f".{target.name}.{os.getpid()}.tmp" if fresh else target
    except OSError:
        return celpy.Environment()
    orig = celparser.Lark

    def cached_lark(*args, **kwargs):
        return orig(*args, cache=str(cache_fn), **kwargs)

    celparser.Lark = cached_lark
    try:
        env = celpy.Environment()
    finally:
        celparser.Lark = orig
    if fresh:
        try:
            os.chmod(cache_fn, 0o600)
            os.replace(cache_fn, target)
        except OSError:
            pass
    return env


class _Backend:
    """Built once per process, on first use: the grammar costs ~100 ms (~10 ms from the cache)."""

    def __init__(self) -> None:
        limit = sys.getrecursionlimit()
        import celpy
        from celpy import celtypes, evaluation

        self.celpy, self.types = celpy, celtypes
        self.env = _environment(celpy)
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


_BACKEND_LOCK = threading.Lock()


@lru_cache(maxsize=1)
def _backend() -> _Backend:
    with _BACKEND_LOCK:
        return _Backend()


_ABSENT = "\0absent"


class Activation:
    """Facts converted to CEL once (and only if a predicate must really run), evaluated against
    many predicates."""

    def __init__(self, facts: dict):
        self.facts = facts
        self._cel = None
        self._keys: dict[tuple[str, ...], str] = {}

    @property
    def cel(self):
        if self._cel is None:
            self._cel = _backend().to_cel(self.facts)
        return self._cel

    def key(self, path: tuple[str, ...]) -> str:
        """The value at `path` as a canonical string (absent and null alike, as CEL sees them)."""
        k = self._keys.get(path)
        if k is None:
            cur: Any = self.facts
            for part in path:
                if not isinstance(cur, dict) or cur.get(part) is None:
                    cur = _ABSENT
                    break
                cur = cur[part]
            if cur is not _ABSENT:
                try:
                    cur = json.dumps(cur, sort_keys=True, default=str)
                except (TypeError, ValueError):  # keys of mixed types cannot be sorted
                    cur = repr(cur)
            k = self._keys[path] = cur
        return k


# Results remembered per predicate: a predicate reads only `paths`, so sites that agree on
# those values (the same GPU, release, mode …) get one evaluation. Bounded for long-lived servers.
_MEMO_LIMIT = 4096


@dataclass
class Predicate:
    source: str
    paths: frozenset[tuple[str, ...]]
    functions: frozenset[str]
    _program: Any = field(default=None, repr=False)
    _tree: Any = field(default=None, repr=False)
    _memo: dict = field(default_factory=dict, repr=False)
    _parts: Any = field(default=None, repr=False)  # the conjuncts of a top-level `a && b && …`

    def _run(self, activation: "Activation | dict"):
        """(CEL result, None) or (None, unknown Outcome), remembered by the values of `paths`."""
        act = activation if isinstance(activation, Activation) else Activation(activation)
        key = tuple(act.key(p) for p in self._sorted_paths)
        hit = self._memo.get(key)
        if hit is None:
            hit = self._run_uncached(act)
            if len(self._memo) >= _MEMO_LIMIT:
                self._memo.clear()
            self._memo[key] = hit
        return hit

    @property
    def _sorted_paths(self) -> tuple[tuple[str, ...], ...]:
        sp = self.__dict__.get("_sp")
        if sp is None:
            sp = self.__dict__["_sp"] = tuple(sorted(self.paths))
        return sp

    def _run_uncached(self, act: "Activation"):
        be = _backend()
        if self._parts:
            # cel-python evaluates every operand of && before combining them; CEL's && is false
            # as soon as one operand is false (errors included), so the conjuncts are tried in
            # order and the first false one decides. Anything but true/false: the whole
            # expression, as before.
            done = True
            for i, part in enumerate(self._parts):
                if not callable(getattr(part, "evaluate", None)):
                    part = self._parts[i] = be.env.program(part, functions=be.functions)
                try:
                    r = part.evaluate(act.cel)
                except Exception:  # noqa: BLE001
                    done = False
                    break
                if not isinstance(r, be.types.BoolType):
                    done = False
                    break
                if not r:
                    return r, None
            if done:
                return be.types.BoolType(True), None
        if self._program is None:
            self._program = be.env.program(self._tree if self._tree is not None else be.env.compile(self.source),
                                           functions=be.functions)
            self._tree = None
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
    collect(tree, frozenset(), paths, funcs)
    return Predicate(source=source, paths=frozenset(paths), functions=frozenset(funcs), _tree=tree,
                     _parts=conjuncts(tree))
