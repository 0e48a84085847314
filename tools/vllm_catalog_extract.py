"""Read one vLLM release's Python sources with `ast` and return a catalog snapshot.

vLLM builds its CLI at run time (dataclass fields turned into flags by `get_kwargs`, frontend
dataclasses looped over, kwargs dicts patched before `add_argument`), so a plain grep for
`add_argument` misses most flags. This module runs a very small interpreter over the few
functions that build the `vllm serve` parser, and over `vllm/envs.py`, without importing vLLM:
anything it cannot work out statically becomes UNSET, and UNSET becomes None in the snapshot.

    snapshot_from_source(Path("/tmp/wheels/src/0.20.0"), "0.20.0")
"""
from __future__ import annotations

import ast
import builtins
import json
import math
import operator
import sys
from pathlib import Path

# tools/ is not a package: make the sibling importable however this module was reached.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from vllm_catalog import arg_type  # noqa: E402  (one coarse-type rule for both kinds of input)


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


# ---------------------------------------------------------------- source tree, modules, classes

class Module:
    def __init__(self, src: "Source", name: str, path: Path, is_pkg: bool):
        self.src, self.name, self.path, self.is_pkg = src, name, path, is_pkg
        self.tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
        self.defs: dict[str, object] = {}  # name -> ClassDef | FunctionDef | expr
        self.imports: dict[str, tuple[str, str | None]] = {}  # local -> (module, attr or None)
        self.stars: list[str] = []
        self._bind(self.tree.body)
        # Function-local imports (e.g. `from vllm.engine.arg_utils import get_kwargs` inside a
        # method) are folded in: names are unique enough in vLLM for this to be safe.
        for node in ast.walk(self.tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for sub in ast.walk(node):
                    if isinstance(sub, (ast.Import, ast.ImportFrom)):
                        self._import(sub, weak=True)

    def _bind(self, body):
        for st in body:
            if isinstance(st, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                self.defs.setdefault(st.name, st)
            elif isinstance(st, ast.Assign):
                for t in st.targets:
                    if isinstance(t, ast.Name):
                        self.defs.setdefault(t.id, st.value)
            elif isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.value is not None:
                self.defs.setdefault(st.target.id, st.value)
            elif isinstance(st, (ast.Import, ast.ImportFrom)):
                self._import(st)
            elif isinstance(st, ast.If):
                self._bind(st.body)
                self._bind(st.orelse)
            elif isinstance(st, ast.Try):
                self._bind(st.body)
                for h in st.handlers:
                    self._bind(h.body)

    def _import(self, st, weak=False):
        if isinstance(st, ast.Import):
            for a in st.names:
                if a.asname:
                    self.imports.setdefault(a.asname, (a.name, None))
                else:
                    top = a.name.split(".")[0]
                    self.imports.setdefault(top, (top, None))
            return
        base = st.module or ""
        if st.level:
            parts = self.name.split(".")
            keep = len(parts) - st.level + (1 if self.is_pkg else 0)
            base = ".".join(parts[:keep] + ([st.module] if st.module else []))
        for a in st.names:
            if a.name == "*":
                if not weak:
                    self.stars.append(base)
                continue
            self.imports.setdefault(a.asname or a.name, (base, a.name))


class ClassInfo:
    def __init__(self, mod: Module, node: ast.ClassDef):
        self.mod, self.node, self.name = mod, node, node.name
        self._bases = None

    @property
    def bases(self) -> list["ClassInfo"]:
        if self._bases is None:
            self._bases = []
            for b in self.node.bases:
                r = self.mod.src.resolve_expr(b, self.mod)
                if isinstance(r, ClassRef):
                    self._bases.append(r.info)
        return self._bases

    def base_names(self) -> set[str]:
        names = set()
        for b in self.node.bases:
            names.add(ast.unparse(b).rsplit(".", 1)[-1])
        for b in self.bases:
            names |= b.base_names()
        return names

    def mro(self) -> list["ClassInfo"]:
        out, todo = [], [self]
        while todo:
            c = todo.pop(0)
            if c not in out:
                out.append(c)
                todo.extend(c.bases)
        return out

    @property
    def is_enum(self) -> bool:
        return bool(self.base_names() & {"Enum", "IntEnum", "StrEnum", "Flag", "IntFlag"})

    @property
    def is_int_enum(self) -> bool:
        return bool(self.base_names() & {"IntEnum", "IntFlag", "int"}) and self.is_enum

    @property
    def is_dataclass(self) -> bool:
        for d in self.node.decorator_list:
            name = ast.unparse(d.func if isinstance(d, ast.Call) else d).rsplit(".", 1)[-1]
            if name in ("dataclass", "config"):
                return True
        return any(b.is_dataclass for b in self.bases) or "BaseModel" in self.base_names()

    def body_value(self, name: str):
        """The expression a class-level name is bound to, searching the MRO: (owner, expr)."""
        for c in self.mro():
            for st in c.node.body:
                if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.target.id == name:
                    return c, st.value
                if isinstance(st, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in st.targets):
                    return c, st.value
        return None, None

    def method(self, name: str, after: "ClassInfo | None" = None):
        mro = self.mro()
        if after is not None and after in mro:
            mro = mro[mro.index(after) + 1:]
        for c in mro:
            for st in c.node.body:
                if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)) and st.name == name:
                    return c, st
        return None, None

    def fields(self) -> list[tuple[str, ast.expr, ast.expr | None, "ClassInfo"]]:
        """Dataclass fields in dataclass order: (name, annotation, default expr, owner)."""
        out: dict[str, tuple] = {}
        for c in reversed(self.mro()):
            for st in c.node.body:
                if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name):
                    ann = ast.unparse(st.annotation)
                    if "ClassVar" in ann or ann.strip("'\"") in ("KW_ONLY", "dataclasses.KW_ONLY"):
                        continue
                    out[st.target.id] = (st.target.id, st.annotation, st.value, c)
        return list(out.values())

    def members(self) -> list[tuple[str, ast.expr]]:
        out = []
        for st in self.node.body:
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
                n = st.targets[0].id
                if not n.startswith("_") and not isinstance(st.value, ast.Lambda):
                    out.append((n, st.value))
            elif isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.value is not None:
                if not st.target.id.startswith("_"):
                    out.append((st.target.id, st.value))
        return out


class Source:
    """One unpacked release: lazily parsed modules and name resolution across imports."""

    def __init__(self, root: Path):
        self.root = root
        self._mods: dict[str, Module | None] = {}
        self._classes: dict[int, ClassInfo] = {}

    def module(self, name: str) -> Module | None:
        if name not in self._mods:
            self._mods[name] = None
            if name == "vllm" or name.startswith("vllm."):
                base = self.root.joinpath(*name.split("."))
                for path, pkg in ((base / "__init__.py", True), (base.with_suffix(".py"), False)):
                    if path.is_file():
                        try:
                            self._mods[name] = Module(self, name, path, pkg)
                        except SyntaxError:
                            pass
                        break
        return self._mods[name]

    def cls(self, mod: Module, node: ast.ClassDef) -> ClassInfo:
        key = id(node)
        if key not in self._classes:
            self._classes[key] = ClassInfo(mod, node)
        return self._classes[key]

    def lookup(self, mod: Module, name: str, depth: int = 0):
        """What a module-level name in `mod` is: ClassRef | FuncRef | (Module, expr) | ModRef | Sym."""
        if depth > 20:
            return UNSET
        d = mod.defs.get(name)
        if isinstance(d, ast.ClassDef):
            return ClassRef(self.cls(mod, d))
        if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return FuncRef(mod, d)
        if d is not None:
            return (mod, d)
        if name in mod.imports:
            base, attr = mod.imports[name]
            if attr is None:
                return ModRef(base) if self.module(base) else Sym(base)
            target = self.module(base)
            if target is not None:
                r = self.lookup(target, attr, depth + 1)
                if r is not UNSET:
                    return r
            if self.module(f"{base}.{attr}"):
                return ModRef(f"{base}.{attr}")
            return Sym(f"{base}.{attr}")
        for star in mod.stars:
            target = self.module(star)
            if target is not None:
                r = self.lookup(target, name, depth + 1)
                if r is not UNSET:
                    return r
        return UNSET

    def member(self, modname: str, name: str, depth: int = 0):
        mod = self.module(modname)
        if mod is not None:
            r = self.lookup(mod, name, depth)
            if r is not UNSET:
                return r
        if self.module(f"{modname}.{name}"):
            return ModRef(f"{modname}.{name}")
        return UNSET

    def resolve_expr(self, node: ast.expr, mod: Module):
        """A Name / dotted Attribute as a reference, without evaluating anything."""
        if isinstance(node, ast.Name):
            r = self.lookup(mod, node.id)
            return Sym(node.id) if r is UNSET else r
        if isinstance(node, ast.Attribute):
            base = self.resolve_expr(node.value, mod)
            if isinstance(base, ModRef):
                r = self.member(base.name, node.attr)
                return Sym(f"{base.name}.{node.attr}") if r is UNSET else r
            if isinstance(base, Sym):
                return Sym(f"{base.name}.{node.attr}")
        return UNSET

    def find_class(self, modnames, name: str) -> ClassInfo | None:
        for m in modnames:
            mod = self.module(m)
            if mod is not None and isinstance(mod.defs.get(name), ast.ClassDef):
                return self.cls(mod, mod.defs[name])
        return None


# ---------------------------------------------------------------- type hints

def hints(src: Source, node, mod: Module, depth: int = 0) -> list[tuple]:
    """An annotation as a flat union of atoms, following type aliases across modules.

    Atoms: ("none",) ("bool",) ("int",) ("float",) ("str",) ("dict",) ("lit", values)
    ("list", inner) ("tuple", inner, fixed_len) ("set", inner) ("cls", ClassInfo) ("other", name)."""
    if node is None or depth > 15:
        return [("other", "?")]
    if isinstance(node, ast.Constant):
        if node.value is None:
            return [("none",)]
        if isinstance(node.value, str):  # a forward reference
            try:
                return hints(src, ast.parse(node.value, mode="eval").body, mod, depth + 1)
            except SyntaxError:
                return [("other", node.value)]
        return [("other", repr(node.value))]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return hints(src, node.left, mod, depth + 1) + hints(src, node.right, mod, depth + 1)
    if isinstance(node, ast.Subscript):
        head = ast.unparse(node.value).rsplit(".", 1)[-1]
        args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if head == "Optional":
            return hints(src, args[0], mod, depth + 1) + [("none",)]
        if head == "Union":
            return [h for a in args for h in hints(src, a, mod, depth + 1)]
        if head in ("Annotated", "SkipValidation", "Required", "NotRequired", "Final", "InitVar"):
            return hints(src, args[0], mod, depth + 1)
        if head == "Literal":
            vals = []
            for a in args:
                if isinstance(a, ast.Constant):
                    vals.append(a.value)
                else:  # Literal["x", OtherLiteralAlias] flattens, as typing does
                    vals += [v for h in hints(src, a, mod, depth + 1) if h[0] == "lit" for v in h[1]]
            return [("lit", tuple(vals))]
        if head.lower() in ("list", "sequence", "mutablesequence", "iterable"):
            return [("list", hints(src, args[0], mod, depth + 1))]
        if head.lower() in ("set", "frozenset", "abstractset"):
            return [("set", hints(src, args[0], mod, depth + 1))]
        if head.lower() == "tuple":
            ell = any(isinstance(a, ast.Constant) and a.value is Ellipsis for a in args)
            return [("tuple", hints(src, args[0], mod, depth + 1), None if ell else len(args))]
        if head.lower() in ("dict", "mapping", "mutablemapping", "defaultdict", "ordereddict"):
            return [("dict",)]
        if head.lower() == "type":
            return [("other", "type")]
        return [("other", head)]
    if isinstance(node, (ast.Name, ast.Attribute)):
        name = ast.unparse(node).rsplit(".", 1)[-1]
        if name in ("bool", "int", "float", "str"):
            return [(name,)]
        if name in ("dict", "Dict", "Mapping"):
            return [("dict",)]
        if name in ("list", "List"):
            return [("list", [("other", "?")])]
        if name in ("None", "NoneType"):
            return [("none",)]
        ref = src.resolve_expr(node, mod)
        if isinstance(ref, ClassRef):
            return [("cls", ref.info)]
        if isinstance(ref, tuple):  # an alias: X = Literal[...] / X: TypeAlias = ...
            amod, expr = ref
            if isinstance(expr, ast.Call) and ast.unparse(expr.func).endswith(("TypeAliasType", "NewType")):
                expr = expr.args[1] if len(expr.args) > 1 else None
            return hints(src, expr, amod, depth + 1)
        return [("other", name)]
    return [("other", ast.unparse(node))]


def render(hs: list[tuple]) -> str:
    """A union of atoms as the annotation text arg_type() reads."""
    parts = []
    for h in hs:
        k = h[0]
        if k == "none":
            parts.append("None")
        elif k in ("bool", "int", "float", "str", "dict", "set"):
            parts.append(k)
        elif k == "lit":
            parts.append("Literal[" + ", ".join(repr(v) for v in h[1]) + "]")
        elif k == "list":
            parts.append("list[" + render(h[1]) + "]")
        elif k == "tuple":
            parts.append("tuple[" + render(h[1]) + "]")
        elif k == "cls":
            parts.append("int" if h[1].is_int_enum else h[1].name)
        else:
            parts.append(h[1])
    return " | ".join(parts)


def literal_choices(hs: list[tuple]) -> list:
    """Allowed values: Literal members (also inside list[...]), else an enum's member names."""
    out = []
    for h in hs:
        if h[0] == "lit":
            out += [v for v in h[1] if v is not None and v not in out]
        elif h[0] in ("list", "set", "tuple"):
            out += [v for v in literal_choices(h[1]) if v not in out]
    if out:
        return out
    for h in hs:
        if h[0] == "cls" and h[1].is_enum:
            return [n for n, _ in h[1].members()]
    return []


# ---------------------------------------------------------------- the interpreter

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


class Interp:
    def __init__(self, src: Source):
        self.src = src
        self.steps = 0
        self.env_defaults: dict[str, object] = {}
        self._field_cache: dict[tuple, object] = {}
        self._globals: dict[int, object] = {}
        self._kwargs_features = None

    def guarded(self, fn, *args):
        """fn(*args) on a fresh step budget; UNSET when the budget runs out."""
        self.steps = 0
        try:
            return fn(*args)
        except (Stop, RecursionError):
            return UNSET

    # -- expressions

    def ev(self, node, f: Frame):
        self.steps += 1
        if self.steps > STEP_BUDGET:
            raise Stop
        m = getattr(self, "_e_" + type(node).__name__, None)
        if m is None:
            return UNSET
        try:
            return m(node, f)
        except (Stop, RecursionError):
            raise
        except Exception:  # a static guess that does not type-check is just unknown
            return UNSET

    def _e_Constant(self, n, f):
        return n.value

    def _e_JoinedStr(self, n, f):
        out = []
        for part in n.values:
            if isinstance(part, ast.Constant):
                out.append(str(part.value))
            else:
                v = self.ev(part.value, f)
                if not isinstance(v, (str, int, float)):
                    return UNSET
                out.append(format(v, self.ev(part.format_spec, f) if part.format_spec else ""))
        return "".join(out)

    def _seq(self, elts, f):
        out = []
        for e in elts:
            if isinstance(e, ast.Starred):
                v = self.ev(e.value, f)
                if not isinstance(v, (list, tuple)):
                    return UNSET
                out += list(v)
            else:
                out.append(self.ev(e, f))
        return out

    def _e_List(self, n, f):
        return self._seq(n.elts, f)

    def _e_Tuple(self, n, f):
        s = self._seq(n.elts, f)
        return UNSET if s is UNSET else tuple(s)

    def _e_Set(self, n, f):
        s = self._seq(n.elts, f)
        return UNSET if s is UNSET else s  # kept ordered: JSON has no sets

    def _e_Dict(self, n, f):
        out = {}
        for k, v in zip(n.keys, n.values):
            if k is None:
                sub = self.ev(v, f)
                if not isinstance(sub, dict):
                    return UNSET
                out.update(sub)
            else:
                key = self.ev(k, f)
                try:
                    out[key] = self.ev(v, f)
                except TypeError:
                    return UNSET
        return out

    def _e_Name(self, n, f):
        if n.id in f.scope:
            return f.scope[n.id]
        if n.id in ("True", "False", "None"):
            return {"True": True, "False": False, "None": None}[n.id]
        if n.id == "__name__":
            return f.mod.name
        if f.body_of is not None:
            owner, expr = f.body_of.body_value(n.id)
            if owner is not None and expr is not None:
                return self.class_attr(f.body_of, n.id, f)
        r = self.src.lookup(f.mod, n.id)
        if isinstance(r, tuple):
            return self.global_value(r, f)
        if r is UNSET:
            if n.id in _SAFE_BUILTINS:
                return _SAFE_BUILTINS[n.id]
            return Sym(n.id)
        return r

    def global_value(self, ref, f: Frame):
        """A module-level binding's value, computed once per release."""
        amod, expr = ref
        key = id(expr)
        if key not in self._globals:
            if f.depth >= MAX_DEPTH:
                return UNSET
            self._globals[key] = UNSET  # guards against cycles
            self._globals[key] = self.ev(expr, Frame(amod, env=f.env, depth=f.depth + 1))
        return self._globals[key]

    def _e_Attribute(self, n, f):
        return self.attr(self.ev(n.value, f), n.attr, f)

    def attr(self, base, name: str, f: Frame):
        if isinstance(base, ModRef):
            if base.name == "vllm.envs" and name in self.env_defaults:
                return self.env_defaults[name]
            r = self.src.member(base.name, name)
            if isinstance(r, tuple):
                return self.global_value(r, f)
            return Sym(f"{base.name}.{name}") if r is UNSET else r
        if isinstance(base, Sym):
            if base.name == "os" and name == "environ":
                return Environ()
            full = f"{base.name}.{name}"
            return _KNOWN_CONSTANTS.get(full, Sym(full))
        if isinstance(base, Environ) and name == "get":
            return Bound(base, "get")
        if isinstance(base, ClassRef):
            return self.class_attr(base.info, name, f)
        if isinstance(base, Instance):
            return self.class_attr(base.info, name, f, instance=base)
        if isinstance(base, SuperRef):
            owner, fn = base.dyn.method(name, after=base.owner)
            return self._method_ref(owner, fn, base.dyn, None) if fn else UNSET
        if isinstance(base, EnumMember):
            return {"value": base.value, "name": base.name}.get(name, UNSET)
        if isinstance(base, (Parser, Subparsers)):
            return Bound(base, name)
        if type(base) in _SAFE_METHODS and name in _SAFE_METHODS[type(base)]:
            return Bound(base, name)
        return UNSET

    def _method_ref(self, owner: ClassInfo, fn, dyn: ClassInfo, instance):
        decos = {ast.unparse(d) for d in fn.decorator_list}
        if "staticmethod" in decos:
            return FuncRef(owner.mod, fn, cls=(owner, dyn))
        if "classmethod" in decos:
            return FuncRef(owner.mod, fn, bound=ClassRef(dyn), cls=(owner, dyn))
        return FuncRef(owner.mod, fn, bound=instance, cls=(owner, dyn))

    def class_attr(self, info: ClassInfo, name: str, f: Frame, instance=None):
        if name == "__name__":
            return info.name
        owner, fn = info.method(name)
        if fn is not None:
            return self._method_ref(owner, fn, info, instance)
        owner, expr = info.body_value(name)
        if owner is None:
            return UNSET
        if owner.is_enum:
            v = self.ev(expr, Frame(owner.mod, depth=f.depth + 1, body_of=owner))
            return EnumMember(owner, name, v)
        return self.field_default(owner, name, expr)

    def _e_Subscript(self, n, f):
        base = self.ev(n.value, f)
        if isinstance(base, Environ):
            return UNSET  # KeyError when unset
        key = self.ev(n.slice, f)
        if isinstance(base, Sym) and base.name == "sys.modules" and isinstance(key, str):
            return ModRef(key) if self.src.module(key) else UNSET  # envs.py reading its own earlier entries
        if isinstance(base, (dict, list, tuple, str)) and key is not UNSET:
            try:
                return base[key]
            except (KeyError, IndexError, TypeError):
                return UNSET
        return UNSET

    def _e_Slice(self, n, f):
        parts = [self.ev(p, f) if p is not None else None for p in (n.lower, n.upper, n.step)]
        return UNSET if UNSET in parts else slice(*parts)

    def _e_UnaryOp(self, n, f):
        v = self.ev(n.operand, f)
        if v is UNSET or not is_concrete(v):
            return UNSET
        if isinstance(n.op, ast.Not):
            return not v
        if isinstance(n.op, ast.USub):
            return -v
        if isinstance(n.op, ast.UAdd):
            return +v
        return ~v

    def _e_BinOp(self, n, f):
        a, b = self.ev(n.left, f), self.ev(n.right, f)
        if not (is_concrete(a) and is_concrete(b)):
            return UNSET
        if isinstance(n.op, ast.Pow) and isinstance(b, int) and b > 64:
            return UNSET
        return _BINOPS[type(n.op)](a, b)

    def _e_BoolOp(self, n, f):
        v = UNSET
        for e in n.values:
            v = self.ev(e, f)
            if v is UNSET or not is_concrete(v):
                return UNSET
            if isinstance(n.op, ast.And) and not v:
                return v
            if isinstance(n.op, ast.Or) and v:
                return v
        return v

    def _e_Compare(self, n, f):
        left = self.ev(n.left, f)
        for op, right_node in zip(n.ops, n.comparators):
            right = self.ev(right_node, f)
            if isinstance(right, Environ) and isinstance(op, (ast.In, ast.NotIn)):
                ok = isinstance(op, ast.NotIn)
            elif isinstance(op, (ast.Is, ast.IsNot)) and (left is None or right is None) \
                    and left is not UNSET and right is not UNSET:
                ok = (left is right) == isinstance(op, ast.Is)
            elif is_concrete(left) and is_concrete(right):
                ok = _CMPOPS[type(op)](left, right)
            else:
                return UNSET
            if not ok:
                return False
            left = right
        return True

    def _e_IfExp(self, n, f):
        t = self.ev(n.test, f)
        if t is UNSET or not is_concrete(t):
            return UNSET
        return self.ev(n.body if t else n.orelse, f)

    def _e_NamedExpr(self, n, f):
        v = self.ev(n.value, f)
        f.scope[n.target.id] = v
        return v

    def _e_Lambda(self, n, f):
        return FuncRef(f.mod, n, closure=dict(f.scope))

    def _e_ListComp(self, n, f):
        if len(n.generators) != 1:
            return UNSET
        g = n.generators[0]
        it = self.ev(g.iter, f)
        if not isinstance(it, (list, tuple, dict, str)):
            return UNSET
        out = []
        for item in it:
            scope = dict(f.scope)
            if not self.assign(g.target, item, scope):
                return UNSET
            sub = Frame(f.mod, scope, f.owner, f.dyn, f.env, f.depth, f.body_of)
            if all(self.ev(c, sub) is True for c in g.ifs):
                out.append(self.ev(n.elt, sub))
        return out

    def _e_Call(self, n, f):
        fn = self.ev(n.func, f)
        args = self._seq(n.args, f)
        if args is UNSET:
            return UNSET
        kwargs = {}
        for kw in n.keywords:
            v = self.ev(kw.value, f)
            if kw.arg is None:
                if not isinstance(v, dict):
                    return UNSET
                kwargs.update(v)
            else:
                kwargs[kw.arg] = v
        return self.call(fn, args, kwargs, f)

    # -- calls

    def call(self, fn, args, kwargs, f: Frame):
        if isinstance(fn, Builtin):
            if all(is_concrete(a) for a in args) and all(is_concrete(v) for v in kwargs.values()):
                return fn.fn(*args, **kwargs)
            if fn.fn in (list, tuple, set) and not args:
                return []
            return UNSET
        if isinstance(fn, Bound):
            return self.call_bound(fn, args, kwargs, f)
        if isinstance(fn, Sym):
            if fn.name == "super" and not args and f.owner is not None:
                return SuperRef(f.owner, f.dyn or f.owner)
            return self.call_sym(fn, args, kwargs, f)
        if isinstance(fn, ClassRef):
            info = fn.info
            if info.name.endswith("ArgumentParser"):
                return Parser(f.scope.get("__new_parsers__"))
            if info.is_dataclass or info.name.endswith(("Config", "Options")) or "dict" in info.base_names():
                return {}  # an instance of a config class: its own fields carry the defaults
            return UNSET
        if isinstance(fn, FuncRef):
            name = getattr(fn.node, "name", "<lambda>")
            special = self.call_special(name, fn, args, kwargs, f)
            if special is not NotImplemented:
                return special
            # Follow what builds or patches the parser (helpers handed the parser or a kwargs
            # dict, methods of the Args classes), closures, and envs.py's own helpers; any other
            # call is not needed for flags or defaults and stays unknown.
            passed = list(args) + list(kwargs.values())
            if isinstance(fn.node, ast.Lambda) or fn.closure or fn.bound is not None or \
                    any(isinstance(a, (Parser, Subparsers, dict)) for a in passed) or \
                    (f.env and fn.mod.name == "vllm.envs"):
                return self.invoke(fn, args, kwargs, f)
        return UNSET

    def call_special(self, name, fn, args, kwargs, f):
        """vLLM helpers whose meaning is known, emulated rather than interpreted."""
        if name == "get_kwargs" and args and isinstance(args[0], ClassRef):
            return self.get_kwargs(args[0].info)
        if name == "get_field" and len(args) >= 2 and isinstance(args[0], ClassRef) and isinstance(args[1], str):
            owner, expr = args[0].info.body_value(args[1])
            return FieldSpec(default=self.field_default(owner, args[1], expr)) if owner else UNSET
        if name in ("optional_type", "parse_type") and args:
            return args[0]  # only the element type matters here
        return NotImplemented

    def call_sym(self, fn: Sym, args, kwargs, f: Frame):
        last = fn.last
        if last.endswith("ArgumentParser"):
            return Parser(f.scope.get("__new_parsers__"))
        if fn.name in ("os.getenv", "os.environ.get"):
            return args[1] if len(args) > 1 else kwargs.get("default")
        if last in ("field", "Field"):
            if "default_factory" in kwargs:
                return FieldSpec(factory=kwargs["default_factory"])
            if "default" in kwargs:
                return FieldSpec(default=kwargs["default"])
            return FieldSpec(default=args[0]) if args and args[0] is not Ellipsis else FieldSpec()
        if last == "cast" and len(args) == 2:
            return args[1]
        if fn.name == "json.loads" and len(args) == 1 and isinstance(args[0], str):
            return json.loads(args[0])
        return UNSET

    def call_bound(self, b: Bound, args, kwargs, f):
        obj, name = b.obj, b.name
        if isinstance(obj, Environ):
            return args[1] if len(args) > 1 else kwargs.get("default")
        if isinstance(obj, Parser):
            if name == "add_argument":
                if obj.sink is not None:
                    obj.sink.append((args, kwargs))
                return UNSET
            if name in ("add_argument_group", "add_mutually_exclusive_group"):
                return Parser(obj.sink)
            if name == "add_subparsers":
                return Subparsers()
            return UNSET
        if isinstance(obj, Subparsers):
            if name == "add_parser":
                title = args[0] if args else kwargs.get("name", UNSET)
                # Only the `serve` subcommand's parser counts; its name may come from self.name.
                live = title == "serve" or not isinstance(title, str)
                return Parser(f.scope.get("__serve_sink__") if live else None)
            return UNSET
        if not all(is_concrete(a) for a in args):
            return UNSET
        out = getattr(obj, name)(*args, **kwargs)
        return list(out) if name in ("items", "keys", "values") else out

    def invoke(self, fn: FuncRef, args, kwargs, f: Frame):
        if f.depth >= MAX_DEPTH:
            return UNSET
        node = fn.node
        scope = dict(fn.closure)
        for k in ("__serve_sink__", "__new_parsers__"):
            if k in f.scope:
                scope[k] = f.scope[k]
        a = node.args
        params = [p.arg for p in a.posonlyargs + a.args]
        pos = ([fn.bound] if fn.bound is not None else []) + list(args)
        defaults = [None] * (len(params) - len(a.defaults)) + list(a.defaults)
        owner, dyn = fn.cls if fn.cls else (None, None)
        inner = Frame(fn.mod, scope, owner, dyn, f.env, f.depth + 1)
        for i, p in enumerate(params):
            if i < len(pos):
                scope[p] = pos[i]
            elif p in kwargs:
                scope[p] = kwargs[p]
            elif defaults[i] is not None:
                scope[p] = self.ev(defaults[i], Frame(fn.mod, dict(fn.closure), depth=f.depth + 1))
            else:
                scope[p] = UNSET
        for p, d in zip(a.kwonlyargs, a.kw_defaults):
            scope[p.arg] = kwargs.get(p.arg, self.ev(d, inner) if d is not None else UNSET)
        if a.vararg:
            scope[a.vararg.arg] = tuple(pos[len(params):])
        if a.kwarg:
            scope[a.kwarg.arg] = {k: v for k, v in kwargs.items() if k not in params}
        if isinstance(node, ast.Lambda):
            return self.ev(node.body, inner)
        done, value = self.exec_block(node.body, inner)
        value = value if done else None
        for other in inner.maybe_returned:
            if other is not value and not (is_concrete(other) and is_concrete(value) and other == value):
                return UNSET  # the result depends on something unknown
        return value

    # -- statements

    def assign(self, target, value, scope: dict) -> bool:
        if isinstance(target, ast.Name):
            scope[target.id] = value
            return True
        if isinstance(target, (ast.Tuple, ast.List)):
            if not isinstance(value, (list, tuple)) or len(value) != len(target.elts):
                for t in target.elts:
                    self.assign(t, UNSET, scope)
                return False
            return all(self.assign(t, v, scope) for t, v in zip(target.elts, value))
        return False

    def exec_block(self, body, f: Frame):
        """Run statements; returns (returned?, value). Branches that cannot be decided both run."""
        for st in body:
            self.steps += 1
            if self.steps > STEP_BUDGET:
                raise Stop
            if isinstance(st, ast.Return):
                return True, self.ev(st.value, f) if st.value is not None else None
            if isinstance(st, ast.Expr):
                self.ev(st.value, f)
            elif isinstance(st, ast.Assign):
                v = self.ev(st.value, f)
                for t in st.targets:
                    if isinstance(t, ast.Subscript):
                        obj, key = self.ev(t.value, f), self.ev(t.slice, f)
                        if isinstance(obj, dict) and key is not UNSET:
                            obj[key] = v
                    else:
                        self.assign(t, v, f.scope)
            elif isinstance(st, ast.AnnAssign) and st.value is not None:
                self.assign(st.target, self.ev(st.value, f), f.scope)
            elif isinstance(st, ast.AugAssign):
                self._augassign(st, f)
            elif isinstance(st, ast.Delete):
                for t in st.targets:
                    if isinstance(t, ast.Subscript):
                        obj, key = self.ev(t.value, f), self.ev(t.slice, f)
                        if isinstance(obj, dict):
                            obj.pop(key, None)
            elif isinstance(st, ast.If):
                t = self.ev(st.test, f)
                if t is not UNSET and is_concrete(t):
                    done, v = self.exec_block(st.body if t else st.orelse, f)
                    if done:
                        return done, v
                else:  # run both for their side effects (flags), remember what each might return
                    for branch in (st.body, st.orelse):
                        done, v = self.exec_block(branch, f)
                        if done:
                            f.maybe_returned.append(v)
            elif isinstance(st, ast.For):
                it = self.ev(st.iter, f)
                if isinstance(it, (list, tuple, dict, str)):
                    for item in list(it):
                        self.assign(st.target, item, f.scope)
                        done, v = self.exec_block(st.body, f)
                        if done:
                            return done, v
            elif isinstance(st, (ast.With, ast.AsyncWith)):
                done, v = self.exec_block(st.body, f)
                if done:
                    return done, v
            elif isinstance(st, ast.Try):
                done, v = self.exec_block(st.body + st.orelse + st.finalbody, f)
                if done:
                    return done, v
            elif isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
                f.scope[st.name] = FuncRef(f.mod, st, closure=f.scope)
        return False, None

    def _augassign(self, st, f):
        if isinstance(st.target, ast.Name):
            cur, add = f.scope.get(st.target.id, UNSET), self.ev(st.value, f)
            if isinstance(cur, list) and isinstance(add, (list, tuple)):
                cur.extend(add)
            elif is_concrete(cur) and is_concrete(add):
                f.scope[st.target.id] = _BINOPS[type(st.op)](cur, add)
            else:
                f.scope[st.target.id] = UNSET
        elif isinstance(st.target, ast.Subscript):
            obj, key, add = self.ev(st.target.value, f), self.ev(st.target.slice, f), self.ev(st.value, f)
            if isinstance(obj, dict) and isinstance(obj.get(key), list) and isinstance(add, (list, tuple)):
                obj[key] = obj[key] + list(add)

    # -- dataclass defaults and get_kwargs

    def field_default(self, owner: ClassInfo, name: str, expr):
        """A dataclass field's default as a Python value (factories called), UNSET if unknown."""
        key = (id(owner.node), name)
        if key not in self._field_cache:
            self._field_cache[key] = UNSET  # guards against cycles
            if expr is None:
                v = UNSET
            else:
                v = self.ev(expr, Frame(owner.mod, body_of=owner))
                if isinstance(v, FieldSpec):
                    v = self.spec_default(v, owner.mod)
            self._field_cache[key] = v
        return self._field_cache[key]

    def spec_default(self, spec: FieldSpec, mod: Module):
        if spec.factory is None:
            v = spec.default
            return self.spec_default(v, mod) if isinstance(v, FieldSpec) else v
        fac = spec.factory
        if isinstance(fac, Builtin):
            return [] if fac.fn in (list, set, tuple, frozenset) else {} if fac.fn is dict else UNSET
        if isinstance(fac, ClassRef):
            return self.call(fac, [], {}, Frame(mod))
        if isinstance(fac, FuncRef):  # a zero-argument factory: worth following even when not a lambda
            return self.invoke(fac, [], {}, Frame(mod))
        return UNSET

    def kwargs_features(self) -> dict:
        """Which branches this release's get_kwargs has (they changed across releases)."""
        if self._kwargs_features is None:
            feats = {"dataclass_first": False, "optional_str_bool": False}
            mod = self.src.module("vllm.engine.arg_utils")
            for name in ("_compute_kwargs", "get_kwargs"):
                node = mod.defs.get(name) if mod else None
                if isinstance(node, ast.FunctionDef):
                    text = ast.unparse(node)
                    feats["dataclass_first"] |= "is_dataclass" in text
                    feats["optional_str_bool"] |= "{bool, str, type(None)}" in text
            self._kwargs_features = feats
        return self._kwargs_features

    def get_kwargs(self, info: ClassInfo) -> dict:
        """What vllm.engine.arg_utils.get_kwargs(cls) returns, as far as kinds and defaults go."""
        feats = self.kwargs_features()
        out = {}
        for name, ann, expr, owner in info.fields():
            hs = hints(self.src, ann, owner.mod)
            kinds = {h[0] for h in hs}
            kw = {"default": self.field_default(owner, name, expr), "__hints__": hs}
            if feats["dataclass_first"] and any(h[0] == "cls" and h[1].is_dataclass for h in hs):
                kw["type"] = Sym("parse_dataclass")
            elif feats["optional_str_bool"] and kinds == {"bool", "str", "none"}:
                kw.update(type=Sym("str"), nargs="?", const=True)
            elif "bool" in kinds:
                kw["action"] = Sym("argparse.BooleanOptionalAction")
            elif "lit" in kinds:
                kw["choices"] = literal_choices(hs)
            elif kinds & {"list", "set", "tuple"}:
                fixed = next((h[2] for h in hs if h[0] == "tuple"), None)
                kw["nargs"] = fixed if fixed else "+"
            elif "int" in kinds:
                kw["type"] = Sym("int")
            elif "float" in kinds:
                kw["type"] = Sym("float")
            elif "dict" in kinds:
                kw["type"] = Sym("json.loads")
            else:
                kw["type"] = Sym("str")
            out[name] = kw
        return out


# ---------------------------------------------------------------- snapshot pieces

def to_json(v):
    if v is UNSET or isinstance(v, (Sym, FuncRef, ModRef, Parser, Bound, Builtin)):
        return None
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, EnumMember):
        if isinstance(v.value, int) and not isinstance(v.value, bool) and v.info.is_int_enum:
            return v.value
        if isinstance(v.value, str) and v.value and all(c.isalnum() or c in "_-" for c in v.value):
            return v.value
        return v.name.lower()
    if isinstance(v, (list, tuple, set, frozenset)):
        return [to_json(x) for x in v]
    if isinstance(v, dict):
        return {str(k): to_json(x) for k, x in v.items() if isinstance(k, (str, int, float, bool))}
    if isinstance(v, (str, int, float, bool)) or v is None:
        return v
    return None


def engine_args(it: Interp) -> dict:
    """AsyncEngineArgs' dataclass fields (EngineArgs' plus the async server's own)."""
    src = it.src
    mods = ["vllm.engine.arg_utils"]
    info = src.find_class(mods, "AsyncEngineArgs") or src.find_class(mods, "EngineArgs")
    if info is None:
        return {}
    out = {}
    for name, ann, expr, owner in info.fields():
        hs = hints(src, ann, owner.mod)
        choices = literal_choices(hs)
        default = to_json(it.guarded(it.field_default, owner, name, expr))
        rec = {"type": arg_type(render(hs), default, choices), "default": default}
        if choices:
            rec["choices"] = choices
        out[name] = rec
    return out


def _action_kind(action) -> str | None:
    if isinstance(action, str):
        name, bases = action, set()
    elif isinstance(action, Sym):
        name, bases = action.last, set()
    elif isinstance(action, ClassRef):
        name, bases = action.info.name, action.info.base_names()
    else:
        return None
    if name in ("store_true", "store_false", "store_const", "count") or "_StoreTrueAction" in bases:
        return "switch"
    if name == "BooleanOptionalAction" or "BooleanOptionalAction" in bases:
        return "negatable"
    return None


def _flag_type(kw: dict, kind: str, default) -> str:
    if kind in ("switch", "negatable"):
        return "bool"
    if "__hints__" in kw:
        return arg_type(render(kw["__hints__"]), default, kw.get("choices"))
    if kind == "values":
        return "list"
    t = kw.get("type")
    name = t.last if isinstance(t, Sym) else t.fn.__name__ if isinstance(t, Builtin) else None
    if name in ("int", "float", "str", "bool"):
        return name
    if name == "loads" or isinstance(t, FuncRef):
        return arg_type(None, default) if not isinstance(default, (list, dict)) else \
            ("list" if isinstance(default, list) else "dict")
    return arg_type(None, default)


def _register(calls, engine: dict, flags: dict, frontend: dict, choices_by_flag: dict):
    """Recorded add_argument calls -> flags; dests that are no EngineArgs field -> frontend args."""
    for args, kw in calls:
        names = [a for a in args if isinstance(a, str) and a.startswith("-")]
        if not names:
            continue  # positional (model_tag)
        dest = kw.get("dest")
        if not isinstance(dest, str):
            long = next((n for n in names if n.startswith("--")), names[0])
            dest = long.lstrip("-").replace("-", "_")
        kind = _action_kind(kw.get("action"))
        if kind is None:
            nargs = kw.get("nargs")
            kind = "values" if nargs in ("+", "*") or (isinstance(nargs, int) and nargs > 1) else "value"
        for n in names:
            flags[n] = {"dest": dest, "kind": kind}
            if isinstance(kw.get("choices"), (list, tuple)):
                choices_by_flag[n] = [c for c in kw["choices"] if is_concrete(c)]
        if dest not in engine and dest not in frontend:
            d = kw.get("default", UNSET)
            if d is UNSET and "default" not in kw:
                d = {"store_true": False, "store_false": True}.get(kw.get("action"), None)
            d = None if isinstance(d, Sym) else to_json(d)  # argparse.SUPPRESS and friends
            frontend[dest] = {"type": _flag_type(kw, kind, d), "default": d}


def _serve_roots(it: Interp) -> list[tuple[FuncRef, str]]:
    """The functions that build `vllm serve`'s parser in this release, and how to call them."""
    src, roots = it.src, []
    # 0.7.3+: the `vllm serve` subcommand class, wherever make_arg_parser lives in that release.
    serve = src.find_class(["vllm.entrypoints.cli.serve"], "ServeSubcommand")
    if serve is not None:
        owner, fn = serve.method("subparser_init")
        if fn is not None:
            roots.append((it._method_ref(owner, fn, serve, Instance(serve)), "subparsers"))
    # 0.6.0–0.7.2: `vllm serve` is a subparser built in vllm/scripts.py main().
    scripts = src.module("vllm.scripts")
    if not roots and scripts is not None and isinstance(scripts.defs.get("main"), ast.FunctionDef):
        roots.append((FuncRef(scripts, scripts.defs["main"]), "main"))
    # Before that only `python -m vllm.entrypoints.openai.api_server` existed.
    mod = src.module("vllm.entrypoints.openai.cli_args")
    if not roots and mod is not None and isinstance(mod.defs.get("make_arg_parser"), ast.FunctionDef):
        roots.append((FuncRef(mod, mod.defs["make_arg_parser"]), "parser"))
    # The engine's own flags, whatever the frontend wiring (normally reached through the above too).
    info = src.find_class(["vllm.engine.arg_utils"], "AsyncEngineArgs") or \
        src.find_class(["vllm.engine.arg_utils"], "EngineArgs")
    if info is not None:
        owner, fn = info.method("add_cli_args")
        if fn is not None:
            roots.append((it._method_ref(owner, fn, info, Instance(info)), "parser"))
    return roots


def _parser_rewrites(src: Source) -> dict[str, str]:
    """Options FlexibleArgumentParser rewrites before argparse sees them, flag -> dest: `--config
    file.yaml` (0.6.0+; the serve parser registers it as well) and `-O3` / `-O 3`, which became
    `--optimization-level` when -O stopped being an alias of --compilation-config (0.12.0)."""
    info = src.find_class(["vllm.utils.argparse_utils", "vllm.utils"], "FlexibleArgumentParser")
    if info is None:
        return {}
    text = ast.unparse(info.node)
    out = {}
    if "'--config'" in text:
        out["--config"] = "config"
    if "'-O'" in text and "'--optimization-level'" in text:
        out["-O"] = "optimization_level"
    return out


def cli_flags(it: Interp, engine: dict) -> tuple[dict, dict, dict]:
    flags, frontend, choices = {}, {}, {}
    for fn, how in _serve_roots(it):
        calls: list = []
        args = {"subparsers": [Subparsers()], "parser": [Parser(calls)], "main": []}[how]
        own_parser = how == "parser" and len(fn.node.args.args) == int(fn.bound is not None)
        if own_parser:
            args = []  # 0.4.x: make_arg_parser() builds its own ArgumentParser
        f = Frame(fn.mod, {"__serve_sink__": calls, "__new_parsers__": calls if own_parser else None})
        it.guarded(it.invoke, fn, args, {}, f)
        _register(calls, engine, flags, frontend, choices)
    for flag, dest in _parser_rewrites(it.src).items():
        if flag not in flags:
            flags[flag] = {"dest": dest, "kind": "value"}
            if dest not in engine:
                frontend.setdefault(dest, {"type": "str", "default": None})
    return flags, frontend, choices


def env_vars(it: Interp) -> dict:
    mod = it.src.module("vllm.envs")
    if mod is None:
        return _env_vars_scattered(it)
    table = mod.defs.get("environment_variables")
    if not isinstance(table, ast.Dict):
        return {}
    declared = {}
    for st in mod.tree.body:
        if isinstance(st, ast.If) and "TYPE_CHECKING" in ast.unparse(st.test):
            for d in st.body:
                if isinstance(d, ast.AnnAssign) and isinstance(d.target, ast.Name):
                    declared[d.target.id] = ast.unparse(d.annotation)
    out = {}
    for k, v in zip(table.keys, table.values):
        if not (isinstance(k, ast.Constant) and isinstance(k.value, str)):
            continue
        getter = it.guarded(it.ev, v, Frame(mod, env=True))
        val = it.guarded(it.call, getter, [], {}, Frame(mod, env=True)) if isinstance(getter, FuncRef) else UNSET
        default = to_json(val)
        it.env_defaults[k.value] = val
        ann = declared.get(k.value) or _converter(v) or {dict: "dict", list: "list"}.get(type(default))
        out[k.value] = {"type": arg_type(ann, default), "default": default}
    return out


def _converter(node) -> str | None:
    """The outermost int()/float()/bool() a getter applies, for variables with no declared type."""
    body = node.body if isinstance(node, ast.Lambda) else node
    if isinstance(body, ast.Call) and isinstance(body.func, ast.Name) and body.func.id in ("int", "float", "bool"):
        return body.func.id
    return None


def _env_read(node) -> tuple[str, object] | None:
    """(name, default) of an `os.getenv("VLLM_X", d)` / `os.environ.get` / `os.environ["VLLM_X"]`."""
    if isinstance(node, ast.Call) and ast.unparse(node.func) in ("os.getenv", "os.environ.get") and node.args:
        key, default = node.args[0], node.args[1] if len(node.args) > 1 else None
    elif isinstance(node, ast.Subscript) and ast.unparse(node.value) == "os.environ":
        key, default = node.slice, None
    else:
        return None
    if isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value.startswith("VLLM_"):
        return key.value, default.value if isinstance(default, ast.Constant) else None
    return None


def _env_vars_scattered(it: Interp) -> dict:
    """Releases before vllm/envs.py (0.4.0, 0.4.1) read VLLM_* variables where they use them: the
    statement around each read is evaluated with the variable unset, as envs.py getters are."""
    out = {}
    root = it.src.root
    for path in sorted((root / "vllm").rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        mod = it.src.module(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
        if mod is None:
            continue
        for node in ast.walk(mod.tree):
            if isinstance(node, (ast.If, ast.While)):
                expr = node.test
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.Return, ast.Expr)):
                expr = node.value
            else:
                continue
            reads = [r for r in map(_env_read, ast.walk(expr)) if r] if expr is not None else []
            for name, raw in reads:
                if name in out:
                    continue
                v = it.guarded(it.ev, expr, Frame(mod, env=True)) if len({n for n, _ in reads}) == 1 else UNSET
                default = to_json(v) if v is not UNSET and is_concrete(v) else raw
                out[name] = {"type": arg_type(None, default), "default": default}
    return out


# ---------------------------------------------------------------- enums

def _literal_alias(it: Interp, modnames, name: str) -> list | None:
    """The flattened values of a module-level Literal alias (nested aliases included)."""
    for m in modnames:
        mod = it.src.module(m)
        if mod is not None and name in mod.defs and not isinstance(mod.defs[name], ast.ClassDef):
            vals = literal_choices(hints(it.src, ast.Name(id=name), mod))
            if vals:
                return vals
    return None


def enums(it: Interp, choices_by_flag: dict) -> dict:
    """Value sets that flags and configs accept, wherever each release keeps them."""
    src, out = it.src, {}
    qmod = "vllm.model_executor.layers.quantization"
    q = _literal_alias(it, [qmod], "QuantizationMethods")
    if q is None:
        mod = src.module(qmod)
        for name in ("QUANTIZATION_METHODS", "_QUANTIZATION_CONFIG_REGISTRY"):
            if mod is not None and isinstance(mod.defs.get(name), (ast.Dict, ast.List)):
                node = mod.defs[name]
                elts = node.keys if isinstance(node, ast.Dict) else node.elts
                q = [e.value for e in elts if isinstance(e, ast.Constant)]
                break
    if q:
        out["quantization_methods"] = q
    for modname, cname in (("vllm.v1.attention.backends.registry", "AttentionBackendEnum"),
                           ("vllm.attention.backends.registry", "AttentionBackendEnum"),
                           ("vllm.attention.backends.registry", "_Backend"),
                           ("vllm.platforms.interface", "_Backend"),
                           ("vllm.attention.selector", "_Backend")):
        info = src.find_class([modname], cname)
        if info is not None:
            out["attention_backends"] = [n for n, _ in info.members()]
            break
    cfg = ["vllm.config.cache", "vllm.config"]
    kv = _literal_alias(it, cfg, "CacheDType") or choices_by_flag.get("--kv-cache-dtype")
    if kv:
        out["kv_cache_dtypes"] = kv
    spec = _literal_alias(it, ["vllm.config.speculative", "vllm.config"], "SpeculativeMethod")
    if spec:
        out["speculative_methods"] = spec
    conns = _kv_connectors(src)
    if conns:
        out["kv_connectors"] = conns
    return {k: {"values": v} for k, v in out.items()}


def _kv_connectors(src: Source) -> list:
    mod = src.module("vllm.distributed.kv_transfer.kv_connector.factory")
    if mod is None:
        return []
    names = []
    for node in ast.walk(mod.tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr == "register_connector" and node.args and isinstance(node.args[0], ast.Constant):
            names.append(node.args[0].value)
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "supported_kv_connector"
                                                   for t in node.targets) and isinstance(node.value, ast.List):
            names += [e.value for e in node.value.elts if isinstance(e, ast.Constant)]  # 0.6.5–0.6.6
    return list(dict.fromkeys(names))


def snapshot_from_source(root: Path, version: str) -> dict:
    """The catalog snapshot of one release whose sources lie at root/vllm/ (version is for messages)."""
    root = Path(root)
    if not (root / "vllm").is_dir():
        raise FileNotFoundError(f"{root}/vllm: no vLLM {version} sources there")
    it = Interp(Source(root))
    env = env_vars(it)  # first: config defaults may read envs.VLLM_*
    engine = engine_args(it)
    flags, frontend, choices = cli_flags(it, engine)
    return {"engine_args": engine, "frontend_args": frontend, "cli_flags": flags, "env_vars": env,
            "enums": enums(it, choices)}
