"""What the Python translations of CEL predicates (engine/kb/cel_compile.py) call: CEL's
operators over plain values with the interpreter's semantics, errors as the value `ERR`, and
`Defer` where only the interpreter can say."""
from __future__ import annotations

import math
import re
from typing import Any, Callable

_INT64 = (-(2**63), 2**63 - 1)


class Defer(Exception):
    """This evaluation leaves what the translation models exactly: the interpreter decides."""


class _Err:
    __slots__ = ()

    def __repr__(self) -> str:
        return "ERR"


ERR = _Err()  # a CEL error value
ERR_INSIDE = _Err()  # a map or list (the whole expression) holding an error value


def normalise(value):
    """Facts as both the interpreter (through json_to_cel) and the translations read them:
    numbers as doubles, nulls dropped, keys as strings, anything else as its string."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, dict):
        return {str(k): normalise(v) for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)):
        return [normalise(v) for v in value if v is not None]
    return str(value)


def _num(x) -> bool:
    return (type(x) is float) or (type(x) is int)


def path(g, parts: tuple[str, ...]):
    cur: Any = g.get(parts[0], ERR)  # g: the facts, each group made plain on first use
    if cur is ERR:
        return ERR
    for p in parts[1:]:
        if type(cur) is not dict:
            return ERR
        cur = cur.get(p, ERR)
        if cur is ERR:
            return ERR
    return cur


def dot(obj, name: str):
    if obj is ERR or type(obj) is not dict:
        return ERR
    return obj.get(name, ERR)


def index(obj, key):
    if obj is ERR:
        return ERR
    if type(obj) is dict and type(key) is str:
        return obj.get(key, ERR)
    raise Defer


def _logic(a, b, decides: bool):
    """CEL's `&&` (`decides` False) and `||` (True): commutative, and a bool that decides the
    result wins over an error or a non-bool on the other side."""
    ta, tb = type(a) is bool, type(b) is bool
    if ta and tb:
        return (a or b) if decides else (a and b)
    if not ta and not tb:
        return ERR
    x, other = (b, a) if tb else (a, b)
    return decides if x is decides else other


def land(a, b):
    return _logic(a, b, False)


def lor(a, b):
    return _logic(a, b, True)


def lnot(a):
    if type(a) is bool:
        return not a
    if a is ERR or _num(a) or type(a) in (str, list, dict) or a is None:
        return ERR
    raise Defer


def neg(a):
    if a is ERR:
        return ERR
    if type(a) is float:
        return -a
    if type(a) is int and -a >= _INT64[0] and -a <= _INT64[1]:
        return -a
    raise Defer


def _pair(a, b):
    """Operands as the interpreter compares them (an int beside a double becomes a double), or
    Defer for pairings it is not modelled on."""
    if type(a) is type(b) and type(a) in (float, int, str):
        return a, b
    if _num(a) and _num(b):
        return float(a), float(b)
    raise Defer


def eq(a, b):
    if a is ERR or b is ERR:
        return ERR
    if type(a) is bool and type(b) is bool:
        return a == b
    x, y = _pair(a, b)
    return x == y


def ne(a, b):
    r = eq(a, b)
    return r if r is ERR else not r


def lt(a, b):
    if a is ERR or b is ERR:
        return ERR
    x, y = _pair(a, b)
    return x < y


def le(a, b):
    if a is ERR or b is ERR:
        return ERR
    x, y = _pair(a, b)
    return x <= y


def gt(a, b):
    if a is ERR or b is ERR:
        return ERR
    x, y = _pair(a, b)
    return x > y


def ge(a, b):
    if a is ERR or b is ERR:
        return ERR
    x, y = _pair(a, b)
    return x >= y


def in_(a, b):
    if a is ERR and type(b) is list:
        return ERR
    if b is ERR and type(a) in (str, float, int, bool):
        # an item in a list that is not there (`has(x) && "k" in x` with x missing): the
        # interpreter's value is an error too, which `&&` / `||` absorb — deferring this one sent
        # every site without model_config_keys to the interpreter, and loaded cel-python for it
        return ERR
    if a is ERR or b is ERR:
        raise Defer
    if type(b) is list:
        if _num(a):  # engine/kb/cel.py's `in`: numbers by value, other items ignored
            fa = float(a)
            return any(_num(x) and float(x) == fa for x in b)
        if type(a) is str and all(type(x) is str for x in b):
            return a in b
    if type(b) is dict and type(a) is str:  # a map's keys (config.json's auto_map: "AutoConfig" in model.auto_map)
        return a in b
    raise Defer


def _arith(a, b, op):
    if a is ERR or b is ERR:
        return ERR
    if type(a) is int and type(b) is int:
        if op == "/":  # CEL's integer division
            raise Defer
        r = a + b if op == "+" else a - b if op == "-" else a * b
        if _INT64[0] <= r <= _INT64[1]:
            return r
        raise Defer
    if _num(a) and _num(b):
        x, y = float(a), float(b)
        if op == "/":
            if y == 0.0:
                raise Defer
            r = x / y
        else:
            r = x + y if op == "+" else x - y if op == "-" else x * y
        if math.isfinite(r):
            return r
    raise Defer


def add(a, b):
    return _arith(a, b, "+")


def sub(a, b):
    return _arith(a, b, "-")


def mul(a, b):
    return _arith(a, b, "*")


def div(a, b):
    return _arith(a, b, "/")


def mod(a, b):
    """`a % b` on two non-negative ints (CEL truncates toward zero; a sign, a zero divisor or a double
    is left to the interpreter)."""
    if a is ERR or b is ERR:
        return ERR
    if type(a) is int and type(b) is int and a >= 0 and b > 0:
        return a % b
    raise Defer


def either(c, left, right):
    """`c ? x : y` whose condition is not a bool: an error (the interpreter evaluates one branch
    first; both were evaluated here, so one it would raise on was deferred)."""
    return ERR


def has(v) -> bool:
    return v is not ERR


def make_list(*items):
    if any(x is ERR for x in items):
        raise Defer
    return list(items)


def top_list(*items):
    """A list literal that is the whole expression: one holding an error is ERR_INSIDE."""
    return ERR_INSIDE if any(x is ERR for x in items) else list(items)


def top_map(*kv):
    """A map literal that is the whole expression: one holding an error is ERR_INSIDE."""
    if any(v is ERR for v in kv[1::2]) and all(type(k) is str for k in kv[::2]) and len(set(kv[::2])) == len(kv[::2]):
        return ERR_INSIDE
    return make_map(*kv)


def make_map(*kv):
    out = {}
    for k, v in zip(kv[::2], kv[1::2]):
        if type(k) is not str or k in out or v is ERR:
            raise Defer
        out[k] = v
    return out


def _args_ok(args) -> bool:
    if any(a is ERR for a in args):
        return False
    return True


def call(name: str, *args):
    """A function the knowledge calls (CEL's own, or one of engine/kb/cel.py's registered ones)."""
    if not _args_ok(args):
        return ERR  # the interpreter hands back the first error argument
    if name == "size" and len(args) == 1 and type(args[0]) in (str, list, dict):
        return len(args[0])
    if name == "double" and len(args) == 1 and _num(args[0]):
        return float(args[0])
    if name == "int" and len(args) == 1:
        a = args[0]
        if type(a) is int:
            return a
        if type(a) is float and math.isfinite(a) and abs(a) < 2**62:
            return int(a)
    if name == "string" and len(args) == 1 and type(args[0]) in (str, float, int):
        return str(args[0])  # celtypes: str(float(x)), str(int(x))
    if name in REGISTERED and all(type(a) in (str, float, int) for a in args):
        # engine/kb/cel.py's wrappers hand strings on as str, numbers as CEL numbers the
        # functions turn into str(float(x)) / str(int(x))
        try:
            return bool(REGISTERED[name](*args))
        except (ValueError, TypeError, AttributeError):  # the interpreter's function_eval: an error value
            return ERR
        except Exception:  # noqa: BLE001 — raised by the interpreter too: it decides
            raise Defer from None
    raise Defer


def method(name: str, obj, *args):
    if obj is ERR or not _args_ok(args):
        return ERR
    if name in ("startsWith", "endsWith", "contains") and type(obj) is str and len(args) == 1 and type(args[0]) is str:
        if name == "startsWith":
            return obj.startswith(args[0])
        if name == "endsWith":
            return obj.endswith(args[0])
        return args[0] in obj
    if name == "matches" and type(obj) is str and len(args) == 1 and type(args[0]) is str:
        # CEL's matches is an unanchored RE2 search; a pattern Python reads otherwise is left to the interpreter
        try:
            return re.search(args[0], obj) is not None
        except re.error:
            raise Defer from None
    raise Defer


REGISTERED: dict[str, Callable[..., Any]] = {}  # filled by engine/kb/cel.py

RUNTIME = {"path": path, "dot": dot, "index": index, "land": land, "lor": lor, "lnot": lnot, "neg": neg, "eq": eq,
           "ne": ne, "lt": lt, "le": le, "gt": gt, "ge": ge, "in_": in_, "add": add, "sub": sub, "mul": mul,
           "div": div, "mod": mod, "either": either, "has": has, "make_list": make_list, "make_map": make_map, "top_list": top_list, "top_map": top_map, "call": call,
           "method": method, "ERR": ERR}
