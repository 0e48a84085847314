"""Compiled regular expressions kept between runs (engine/kb/cache.py): Python's `re` parses and
compiles each pattern to the engine's code in Python, again in every process — about 480
patterns in a cold 20-file audit (some 300 module constants at import, the model catalogue's
family patterns at run time), 8 % of its instructions. `install` makes `re` look a pattern up
first and hand the stored code straight to the engine (`_sre.compile`, the call `re` ends with),
so the Pattern is the one `re` would have built.

What is stored: only patterns the code itself holds — compiled by a module's or class's body as it
is imported, written as a literal where compiled, or read from the knowledge (`knowledge`) — never
one made from an audited project (the cache holds nothing about projects). An entry is the exact arguments `re` passed to the engine,
recorded as it passed them, in a file named by the interpreter's exact version and the engine's
MAGIC: another Python never reads it. Any failure leaves `re` as it was: an interpreter whose `re`
does not compile through a module-level `_sre` (PyPy, a future CPython) is left alone, and an entry
the engine refuses (`_sre.compile` validates the code it is given) is compiled by `re` again.
Checked on CPython 3.10 (sre_compile) and 3.11–3.13 (re._compiler): tests/test_regex_cache_pythons.py;
why it is kept, and what it saves: docs/performance.md."""
from __future__ import annotations

import sys
import threading
import types
from typing import Any

from vllm_kb.engine.kb import cache

_local = threading.local()  # .key: the pattern `re` is compiling now, when it may be stored; .allow: knowledge()
_BUNDLE: cache.Bundle | None = None
_PLAIN: Any = None  # re's own compilation, for the tests
_OURS = frozenset({"re", "re._compiler", "sre_compile", __name__})
_COMPREHENSIONS = frozenset({"<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>"})
_NEWLOCALS = 0x2  # inspect.CO_NEWLOCALS: a function's frame; a module's or class's body has none


def _code_owned(pattern: str) -> bool:
    """Whether the pattern is the code's own: the first caller outside `re` and this module (past
    the comprehensions it runs in) is a module's or a class's body — run as the module is imported —
    or holds the pattern as one of its literals."""
    f: types.FrameType | None = sys._getframe(2)
    while f is not None and f.f_globals.get("__name__") in _OURS:
        f = f.f_back
    if f is not None and pattern in f.f_code.co_consts:
        return True
    while f is not None and f.f_code.co_name in _COMPREHENSIONS:
        f = f.f_back
    return f is not None and not f.f_code.co_flags & _NEWLOCALS


def install() -> None:
    """Route `re`'s compilation through the cache (once per process; nothing without a cache)."""
    global _BUNDLE, _PLAIN
    if _BUNDLE is not None or cache.cache_dir() is None:
        return
    try:
        import _sre  # type: ignore[import-not-found]
        import re

        compiler: Any = getattr(re, "_compiler", None) or sys.modules.get("sre_compile")
        if compiler is None or not callable(getattr(compiler, "compile", None)) or compiler._sre is not _sre:
            return
        debug = int(re.DEBUG)
    except (ImportError, AttributeError):
        return
    name = f"patterns-{sys.implementation.name}-{sys.hexversion:x}-sre{_sre.MAGIC}-{cache.MARSHAL_TAG}.marshal"
    bundle = _BUNDLE = cache.Bundle("re", name, limit=2048, binary=True, files=4)
    plain = _PLAIN = compiler.compile
    engine = _sre.compile

    def record(pattern, flags, code, *rest):
        key = getattr(_local, "key", None)
        if key is not None:
            _local.key = None
            try:
                bundle.put(key, (int(flags), [int(c) for c in code], *rest))
            except (TypeError, ValueError):
                pass
        return engine(pattern, flags, code, *rest)

    def compile_(p, flags=0):
        if type(p) is not str or type(flags) is not int or flags & debug:
            return plain(p, flags)
        key = f"{flags}:{p}"
        hit = bundle.get(key)
        if hit is not None:
            try:
                return engine(p, *hit)
            except Exception:  # noqa: BLE001 — an entry the engine refuses (a damaged file): `re` compiles it, and it is stored anew
                pass
        _local.key = key if getattr(_local, "allow", False) or _code_owned(p) else None
        try:
            return plain(p, flags)
        finally:
            _local.key = None

    proxy = types.ModuleType("_sre")
    proxy.__dict__.update(_sre.__dict__)
    proxy.compile = record  # type: ignore[attr-defined]
    compiler._sre = proxy
    compiler.compile = compile_


def knowledge(pattern: str, flags: int = 0):
    """re.compile of a pattern read from the knowledge (code of the project's own, like a module
    constant): stored when compiled."""
    import re

    _local.allow = True
    try:
        return re.compile(pattern, flags)
    finally:
        _local.allow = False
