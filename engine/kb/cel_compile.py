"""CEL predicates translated once into Python: the parse tree becomes the source of one Python
expression over the facts as plain values (engine/kb/cel_runtime.py `normalise`), which Python compiles
to a function. The knowledge stays CEL; this is only a faster way to run it.

The translation mirrors cel-python's interpreter (the reference, with engine/kb/cel.py's numeric
promotion) for the values the knowledge meets: maps, strings, booleans, numbers, lists. Errors
are values (`ERR`), absorbed by `&&`/`||` as the interpreter absorbs them. Where the two might
differ — a type pairing it does not model, an error the interpreter raises rather than returns,
a message only the interpreter can word — the function raises `Defer` and the interpreter
decides that one evaluation. A construct it does not translate (macros, `dyn`, bytes …) leaves
the predicate to the interpreter altogether (`translate` gives None). tests/test_cel_compiled.py
holds both to the same result over every predicate of knowledge/ and every check case."""
from __future__ import annotations

import math
from typing import Any, Callable

from vllm_kb.engine.kb.cel_runtime import RUNTIME

# Bumped whenever the translation changes: cached translations of another version miss.
VERSION = 3
# Names the interpreter resolves to types or functions when they are not facts.
_RESERVED = frozenset({"bool", "bytes", "double", "duration", "int", "list", "map", "null_type", "string",
                       "timestamp", "uint", "type", "dyn", "has", "true", "false", "null"})
_REL = {"relation_lt": "lt", "relation_le": "le", "relation_gt": "gt", "relation_ge": "ge", "relation_eq": "eq",
        "relation_ne": "ne", "relation_in": "in_"}
_BIN = {"addition_add": "add", "addition_sub": "sub", "multiplication_mul": "mul", "multiplication_div": "div",
        "multiplication_mod": "mod"}
_FUNCTIONS = frozenset({"size", "int", "double", "string"})
_METHODS = frozenset({"startsWith", "endsWith", "contains", "matches"})


class _Unsupported(Exception):
    pass


def translate(tree, registered: frozenset[str]) -> str | None:
    """The Python expression (over `g`, the plain facts) for a parse tree, or None when the tree
    uses something the translation leaves to the interpreter."""
    try:
        t = _Translator(registered)
        t.top = _top(tree)
        return t.expr(tree)
    except _Unsupported:
        return None


def _top(tree):
    """The node the whole expression comes down to through single-child nodes."""
    from lark import Tree

    node = tree
    while isinstance(node, Tree) and len(node.children) == 1 and node.data not in ("list_lit", "map_lit", "literal", "ident"):
        node = node.children[0]
    return node


class _Translator:
    def __init__(self, registered: frozenset[str]):
        self.registered = registered
        self.n = 0  # conditions named so far
        self.top = None  # the node that is the whole expression (engine/kb/cel_runtime.py top_map)

    def expr(self, t) -> str:
        from lark import Token, Tree

        if isinstance(t, Token) or not isinstance(t, Tree):
            raise _Unsupported(repr(t))
        kind, ch = t.data, t.children
        if kind in ("expr",):
            if len(ch) == 1:
                return self.expr(ch[0])
            if len(ch) == 3:  # c ? x : y, only the chosen branch is evaluated
                self.n += 1
                c, x, y = f"_c{self.n}", self.expr(ch[1]), self.expr(ch[2])
                return f"({x} if ({c} := {self.expr(ch[0])}) is True else {y} if {c} is False else either({c}, {x}, {y}))"
            raise _Unsupported(kind)
        if kind in ("conditionalor", "conditionaland"):
            if len(ch) == 1:
                return self.expr(ch[0])
            fn = "lor" if kind == "conditionalor" else "land"
            return f"{fn}({self.expr(ch[0])}, {self.expr(ch[1])})"
        if kind in ("relation", "addition", "multiplication"):
            if len(ch) == 1:
                return self.expr(ch[0])
            op, right = ch
            binary = _REL.get(op.data) or _BIN.get(op.data)
            if binary is None or len(op.children) != 1:
                raise _Unsupported(op.data)
            return f"{binary}({self.expr(op.children[0])}, {self.expr(right)})"
        if kind == "unary":
            if len(ch) == 1:
                return self.expr(ch[0])
            op, operand = ch
            unary = {"unary_not": "lnot", "unary_neg": "neg"}.get(op.data)
            if unary is None:
                raise _Unsupported(op.data)
            return f"{unary}({self.expr(operand)})"
        if kind in ("member", "primary", "paren_expr"):
            if len(ch) != 1:
                raise _Unsupported(kind)
            return self.expr(ch[0])
        if kind == "member_dot":
            chain = self._chain(t)
            if chain is not None:
                return f"path(g, {tuple(chain)!r})"
            return f"dot({self.expr(ch[0])}, {str(ch[1])!r})"
        if kind == "member_index":
            return f"index({self.expr(ch[0])}, {self.expr(ch[1])})"
        if kind == "member_dot_arg":
            target, name, *rest = ch
            if str(name) not in _METHODS:
                raise _Unsupported(str(name))
            args = self._args(rest)
            return f"method({str(name)!r}, {self.expr(target)}{''.join(', ' + a for a in args)})"
        if kind == "ident":
            name = str(ch[0])
            if name in _RESERVED:
                raise _Unsupported(name)
            return f"path(g, {(name,)!r})"
        if kind == "ident_arg":
            name, *rest = ch
            name = str(name)
            args = self._args(rest)
            if name == "has":
                if len(args) != 1:
                    raise _Unsupported("has")
                return f"has({args[0]})"
            if name not in _FUNCTIONS and name not in self.registered:
                raise _Unsupported(name)
            return f"call({name!r}{''.join(', ' + a for a in args)})"
        if kind == "literal":
            return repr(_literal(ch[0]))
        if kind == "list_lit":
            items = self._args(ch)
            return f"{'top' if t is self.top else 'make'}_list({', '.join(items)})"
        if kind == "map_lit":
            items = self._args(ch, of="mapinits")
            return f"{'top' if t is self.top else 'make'}_map({', '.join(items)})"
        raise _Unsupported(kind)

    def _args(self, rest, of: str = "exprlist") -> list[str]:
        if not rest:
            return []
        if len(rest) != 1 or getattr(rest[0], "data", None) != of:
            raise _Unsupported(of)
        return [self.expr(a) for a in rest[0].children]

    def _chain(self, t) -> list[str] | None:
        from vllm_kb.engine.kb.cel_paths import _chain

        chain = _chain(t)
        if chain is None or chain[0] in _RESERVED:
            return None
        return chain


def _literal(token):
    """A literal as the interpreter reads it, as a plain value."""
    from celpy import celtypes
    from celpy.evaluation import celstr

    kind = token.type
    if kind == "INT_LIT":
        v = int(celtypes.IntType(token.value))
    elif kind == "FLOAT_LIT":
        v = float(celtypes.DoubleType(token.value))
    elif kind in ("STRING_LIT", "MLSTRING_LIT"):
        v = str(celstr(token))
    elif kind == "BOOL_LIT":
        v = token.value.lower() == "true"
    elif kind == "NULL_LIT":
        v = None
    else:  # bytes, uint
        raise _Unsupported(kind)
    if isinstance(v, float) and not math.isfinite(v):
        raise _Unsupported("non-finite literal")
    return v


def build(code: str) -> Callable[[dict], Any]:
    """The Python function for a translated expression. Its compiled code is kept in the cache
    (engine/kb/cache.py): compiling the ~300 translations a small audit runs was 4 % of a cold start."""
    codes = _codes()
    obj = codes.get(code)
    if type(obj) is not _CODE:
        obj = compile(f"lambda g: {code}", "<cel>", "eval")
        codes.put(code, obj)
    return eval(obj, dict(RUNTIME))  # noqa: S307 — our own translation


_CODE = type(build.__code__)
_CODES = None


def _codes():
    global _CODES
    if _CODES is None:
        from vllm_kb.engine.kb import cache

        _CODES = cache.Bundle("cel-py", f"code-v{VERSION}-{cache.code_tag(__file__)}-{cache.MARSHAL_TAG}.marshal", binary=True)
    return _CODES
