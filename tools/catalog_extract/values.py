"""The values the interpreter passes around: UNSET for what the sources do not decide
statically, symbols, module/class/function references, argparse parsers and environ reads."""
from __future__ import annotations

import ast
import builtins
import operator
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: sources.py builds on these values
    from catalog_extract.sources import ClassInfo, Module

from catalog_extract.types import arg_type  # noqa: F401  (re-exported for the readers)


class _Unset:
    def __repr__(self):
        return "UNSET"


UNSET = _Unset()  # a value the sources do not determine statically

# Per root: building 0.34.0's whole serve parser takes ~5k steps; the budget only stops runaways.
STEP_BUDGET = 200_000
MAX_DEPTH = 12  # nested calls / name resolutions


# ---------------------------------------------------------------- values the interpreter passes around

class Sym:
    """Something outside vLLM (argparse.BooleanOptionalAction, json.loads, torch.dtype …), by name."""

    def __init__(self, name: str):
        self.name = name

    @property
    def last(self) -> str:
        return self.name.rsplit(".", 1)[-1]


class ModRef:
    def __init__(self, name: str):
        self.name = name


class ClassRef:
    def __init__(self, info: "ClassInfo"):
        self.info = info


class Instance:
    def __init__(self, info: "ClassInfo"):
        self.info = info


class EnumMember:
    def __init__(self, info: "ClassInfo", name: str, value):
        self.info, self.name, self.value = info, name, value


class FuncRef:
    def __init__(self, mod: "Module", node, closure: dict | None = None, bound=None, cls=None):
        self.mod, self.node, self.closure, self.bound, self.cls = mod, node, closure or {}, bound, cls


class SuperRef:
    def __init__(self, owner: "ClassInfo", dyn: "ClassInfo"):
        self.owner, self.dyn = owner, dyn


class FieldSpec:
    """dataclasses.field(...) / pydantic.Field(...): a default or a factory."""

    def __init__(self, default=UNSET, factory=None):
        self.default, self.factory = default, factory


class Environ:
    """os.environ of a process that sets no variable: what a default means."""


class Parser:
    """An argparse parser or group. sink collects its add_argument calls when it is (part of) the
    `vllm serve` parser; None for any other parser (the top-level `vllm` one, `vllm chat` …)."""

    def __init__(self, sink: list | None):
        self.sink = sink


class Subparsers:
    """What add_subparsers() returns: only its `serve` parser is live."""


class Bound:
    """A method of a concrete Python value (str.replace, dict.items …) or of a Parser."""

    def __init__(self, obj, name: str):
        self.obj, self.name = obj, name


class Builtin:
    def __init__(self, fn):
        self.fn = fn


_SAFE_BUILTINS = {n: Builtin(getattr(builtins, n)) for n in (
    "int", "float", "str", "bool", "list", "dict", "set", "tuple", "len", "sorted", "max", "min",
    "abs", "any", "all", "round", "frozenset")}
_SAFE_METHODS = {
    str: {"lower", "upper", "strip", "lstrip", "rstrip", "replace", "split", "startswith", "endswith",
          "join", "format", "title", "capitalize", "isdigit", "removeprefix", "removesuffix"},
    dict: {"get", "items", "keys", "values", "pop", "update", "copy", "setdefault"},
    list: {"append", "extend", "copy", "index", "count", "insert", "pop", "remove"},
    tuple: {"index", "count"},
}
_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
           ast.BitOr: operator.or_, ast.BitAnd: operator.and_, ast.LShift: operator.lshift}
_CMPOPS = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
           ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
           ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b}
# Constants of the standard library that vLLM uses as defaults.
_KNOWN_CONSTANTS = {"ssl.CERT_NONE": 0, "ssl.CERT_OPTIONAL": 1, "ssl.CERT_REQUIRED": 2}
_CONCRETE = (str, int, float, bool, type(None), list, tuple, dict, set, frozenset)


def is_concrete(v) -> bool:
    if isinstance(v, (list, tuple, set, frozenset)):
        return all(is_concrete(x) for x in v)
    if isinstance(v, dict):
        return all(is_concrete(k) and is_concrete(x) for k, x in v.items())
    return isinstance(v, _CONCRETE)


class Stop(Exception):
    """The step budget ran out."""


class Frame:
    """Where an expression is evaluated. owner/dyn: the class defining the running method and the
    class it runs for (what super() needs); body_of: the class whose body is being evaluated (its
    names are visible there, unlike in its methods); env: follow calls into vllm/envs.py helpers."""

    def __init__(self, mod: Module, scope: dict | None = None, owner: ClassInfo | None = None,
                 dyn: ClassInfo | None = None, env: bool = False, depth: int = 0,
                 body_of: ClassInfo | None = None):
        self.mod, self.scope, self.owner, self.dyn = mod, scope if scope is not None else {}, owner, dyn
        self.env, self.depth, self.body_of = env, depth, body_of
        self.maybe_returned: list = []  # values returned on a branch that could not be decided
