"""cel-python, the reference interpreter: built once per process on first use (its grammar
costs ~100 ms, ~10 ms from the cache), with the numeric promotion and the registered functions
the knowledge relies on. engine/kb/cel.py is the only module that uses it."""
from __future__ import annotations

import operator
import os
import sys
import threading
from functools import lru_cache
from typing import Any, Callable

from vllm_kb.engine.kb import versions
from vllm_kb.engine.kb.cel_runtime import normalise


def _version_cmp(a, b) -> int:
    va, vb = versions.parse(str(a)), versions.parse(str(b))
    return (va > vb) - (va < vb)


# Functions a predicate may call beyond CEL's own; `kb validate` rejects any other name.
_PY_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "version_ge": lambda a, b: _version_cmp(a, b) >= 0,
    "version_lt": lambda a, b: _version_cmp(a, b) < 0,
    "version_in": lambda a, spec: versions.SpecifierSet(str(spec)).contains(str(a)),
}


def _environment(celpy):
    """celpy.Environment() with lark's LALR tables cached on disk: building them is ~100-150 ms
    of every cold start, loading them ~10 ms. The cache is lark's own (keyed by a hash of the
    grammar, the options, lark's and Python's versions; a stale or broken file is rebuilt),
    written under a temporary name and renamed, in a folder only the user can write
    (engine/kb/cache.py: `folder` verifies it 0700 and the user's, `trusted` the file)."""
    from celpy import celparser

    from vllm_kb.engine.kb import cache

    folder = cache.folder("cel")
    if folder is None or celparser.CELParser.CEL_PARSER is not None:
        return celpy.Environment()
    try:
        import lark

        target = folder / f"cel-grammar-lark{lark.__version__}-py{sys.version_info[0]}{sys.version_info[1]}.cache"
        fresh = not cache.trusted(target)  # a pickle runs code: only the user's own file is loaded
        if not fresh:
            cache.used(target)
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
            cache.prune_at_exit(target, 8)  # other lark and Python versions' tables
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
        return self.celpy.json_to_cel(normalise(facts))


def _wrap_py(fn, T):
    def g(*args):
        return T.BoolType(bool(fn(*[str(a) if isinstance(a, T.StringType) else a for a in args])))
    return g


_BACKEND_LOCK = threading.Lock()


@lru_cache(maxsize=1)
def backend() -> _Backend:
    with _BACKEND_LOCK:
        return _Backend()


