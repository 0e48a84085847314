"""The only module that knows CEL. Everything else sees `compile()`, `Activation` and `Outcome`.
A predicate runs as Python translated from its parse tree once (engine/kb/cel_compile.py, cached
on disk with the paths it reads, so a warm start parses nothing); cel-python's interpreted runner
(pure Python, runs wherever vLLM runs) is the reference it defers to for anything outside what
the translation mirrors exactly, and runs the predicates it does not translate.

Quirks handled (measured, see STYLE.md): int/double never compare in cel-python, so numeric
facts become doubles and the operators promote ints (engine/kb/cel_backend.py); results are
turned into Python bools; a missing fact becomes "unknown", never a pass or a fail.
cel-python's CompiledRunner is not used: it failed on some expressions and broke the
interpreted runner in the same process.
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from vllm_kb.engine.kb import cel_compile, cel_runtime
from vllm_kb.engine.kb.cel_backend import _PY_FUNCTIONS, backend
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


REGISTERED_FUNCTIONS = frozenset(_PY_FUNCTIONS)
cel_runtime.REGISTERED.update(_PY_FUNCTIONS)
_backend = backend  # one name for the module's callers (tests replace it)


_normalise = cel_runtime.normalise


_ABSENT = "\0absent"


class Activation:
    """Facts converted to CEL once (and only if a predicate must really run), evaluated against
    many predicates."""

    def __init__(self, facts: dict):
        self.facts = facts
        self._cel = None
        self._keys = _Keys(facts)
        # the value at a path as a canonical string: `key(path)`, a dict read in C once made (engine/check/
        # evaluate.py builds ~1,600 a site from ~230 checks' paths: `map(act.key, …)` reads this directly)
        self.key = self._keys.__getitem__
        self.plain = _PlainFacts(facts)

    @property
    def cel(self):
        if self._cel is None:
            self._cel = _backend().to_cel(self.facts)
        return self._cel


class _Keys(dict):
    """path → the value there as a canonical string (absent and null alike, as CEL sees them), made on
    first read (`__missing__`: a hit never leaves C)."""

    __slots__ = ("facts",)

    def __init__(self, facts: dict):
        super().__init__()
        self.facts = facts

    def __missing__(self, path: tuple[str, ...]) -> str:
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
        self[path] = cur
        return cur


class _PlainFacts:
    """The facts as the translated predicates read them: each top-level group normalised as the
    interpreter would see it (`_normalise`), on first use."""

    __slots__ = ("facts", "groups")

    def __init__(self, facts: dict):
        self.facts = facts
        self.groups: dict[str, Any] = {}

    def get(self, name: str, default):
        v = self.groups.get(name, _ABSENT)
        if v is _ABSENT:
            raw = self.facts.get(name) if isinstance(self.facts, dict) else None
            v = self.groups[name] = default if raw is None else _normalise(raw)
        return v


# Results remembered per predicate: a predicate reads only `paths`, so sites that agree on
# those values (the same GPU, release, mode …) get one evaluation. Bounded for long-lived servers.
_MEMO_LIMIT = 4096


_UNPARSED = object()


@dataclass
class Predicate:
    source: str
    paths: frozenset[tuple[str, ...]]
    functions: frozenset[str]
    _program: Any = field(default=None, repr=False)
    _tree: Any = field(default=_UNPARSED, repr=False)
    _memo: dict = field(default_factory=dict, repr=False)
    _parts: Any = field(default=None, repr=False)  # the conjuncts of a top-level `a && b && …`
    code: str | None = None  # the Python translation (engine/kb/cel_compile.py); None: interpreted
    _fn: Any = field(default=None, repr=False)

    def _compiled(self, act: "Activation", value_wanted: bool = False):
        """(value, unknown) from the translation, or None when the interpreter must decide."""
        if self.code is None:
            return None
        fn = self._fn
        if fn is None:
            fn = self._fn = cel_compile.build(self.code)
        try:
            value = fn(act.plain)
        except cel_runtime.Defer:
            return None
        if value is cel_runtime.ERR or (value is cel_runtime.ERR_INSIDE and value_wanted):
            missing = tuple(sorted(".".join(p) for p in self.paths if not _present(act.facts, p)))
            return (None, Outcome(None, missing=missing)) if missing else None  # the message is the interpreter's
        if value is cel_runtime.ERR_INSIDE:
            return None
        return value, None

    def _run(self, activation: "Activation | dict"):
        """(CEL result, None) or (None, unknown Outcome), remembered by the values of `paths`."""
        act = activation if isinstance(activation, Activation) else Activation(activation)
        key = tuple(map(act.key, self._sorted_paths))
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

    def _parsed(self):
        if self._tree is _UNPARSED:  # a translation from the cache: parse only now
            self._tree = _backend().env.compile(self.source)
            self._parts = conjuncts(self._tree)
        return self._tree

    def _run_uncached(self, act: "Activation"):
        be = _backend()
        self._parsed()
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
        act = activation if isinstance(activation, Activation) else Activation(activation)
        fast = self._compiled(act)
        if fast is not None:
            value, unknown = fast
            if unknown is not None:
                return unknown
            if type(value) is bool:
                return Outcome(value)
        return self.interpret(act)

    def interpret(self, activation: "Activation | dict") -> Outcome:
        """The verdict from cel-python's interpreter alone (the reference)."""
        result, unknown = self._run(activation)
        if unknown is not None:
            return unknown
        if not isinstance(result, _backend().types.BoolType):
            return Outcome(None, error=f"predicate gave {type(result).__name__}, not a bool")
        return Outcome(bool(result))

    def compute(self, activation: "Activation | dict") -> tuple[Any, Outcome | None]:
        """The expression's value as plain Python (for `value_from`), or an unknown Outcome."""
        act = activation if isinstance(activation, Activation) else Activation(activation)
        fast = self._compiled(act, value_wanted=True)
        if fast is not None:
            value, unknown = fast
            return (None, unknown) if unknown is not None else (_plain_to_python(value), None)
        return self.compute_interpreted(act)

    def compute_interpreted(self, activation: "Activation | dict") -> tuple[Any, Outcome | None]:
        act = activation if isinstance(activation, Activation) else Activation(activation)
        result, unknown = self._run(act)
        if unknown is not None:
            return None, unknown
        value = _to_python(result, _backend().types)
        err = _error_in(value)
        if err is not None:  # a value that could not be computed in full is not known: never handed on
            return None, self._unknown(act.facts, err)
        return value, None

    def _unknown(self, facts: dict, err: Exception) -> Outcome:
        missing = tuple(sorted(".".join(p) for p in self.paths if not _present(facts, p)))
        msg = str(err.args[0]) if getattr(err, "args", None) else str(err)
        if missing:
            return Outcome(None, missing=missing)
        return Outcome(None, error=msg[:200])


def _error_in(v):
    """The first error inside a computed value (a CEL error in a map or list), else None."""
    if isinstance(v, Exception):
        return v
    for x in v.values() if isinstance(v, dict) else v if isinstance(v, list) else ():
        e = _error_in(x)
        if e is not None:
            return e
    return None


def _plain_to_python(v):
    """_to_python for a translated predicate's plain value."""
    if type(v) is float:
        return int(v) if v.is_integer() else v
    if type(v) is list:
        return [_plain_to_python(x) for x in v]
    if type(v) is dict:
        return {str(k): _plain_to_python(x) for k, x in v.items()}
    return v


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
    hit = _cache_read(source)
    if hit is not None:
        return Predicate(source=source, paths=frozenset(tuple(p) for p in hit["paths"]),
                         functions=frozenset(hit["functions"]), code=hit["code"])
    be = _backend()
    try:
        tree = be.env.compile(source)
    except Exception as e:
        raise CelSyntaxError(str(e).splitlines()[0] if str(e) else "syntax error") from None
    paths: set[tuple[str, ...]] = set()
    funcs: set[str] = set()
    collect(tree, frozenset(), paths, funcs)
    code = cel_compile.translate(tree, REGISTERED_FUNCTIONS)
    _cache_write(source, {"paths": sorted(paths), "functions": sorted(funcs), "code": code})
    return Predicate(source=source, paths=frozenset(paths), functions=frozenset(funcs), _tree=tree,
                     _parts=conjuncts(tree), code=code)


def _bundle():
    global _BUNDLE
    if _BUNDLE is None:
        from vllm_kb.engine.kb import cache

        tag = cache.code_tag(cel_compile.__file__, __file__)
        _BUNDLE = cache.Bundle("cel-py", f"translations-v{cel_compile.VERSION}-{tag}-py{sys.version_info[0]}{sys.version_info[1]}.json")
    return _BUNDLE


_BUNDLE = None


def _cache_read(source: str) -> dict | None:
    hit = _bundle().get(source)
    if not (isinstance(hit, dict) and isinstance(hit.get("paths"), list)
            and isinstance(hit.get("functions"), list) and (hit.get("code") is None or isinstance(hit["code"], str))):
        return None
    return hit


def _cache_write(source: str, entry: dict) -> None:
    _bundle().put(source, entry)
