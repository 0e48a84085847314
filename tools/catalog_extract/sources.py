"""A release's sources as the interpreter sees them: modules parsed on demand, classes with
their fields and bases, type hints rendered to text, Literal choices."""
from __future__ import annotations

import ast
from pathlib import Path

from catalog_extract.values import (
    UNSET,
    ClassRef,
    FuncRef,
    ModRef,
    Sym,
)

# ---------------------------------------------------------------- source tree, modules, classes

def bases_first(klass) -> list:
    """The class, then its bases breadth first, each once (what attribute lookups walk here; not
    Python's C3 order, which the sources never need)."""
    out, todo = [], [klass]
    while todo:
        c = todo.pop(0)
        if c not in out:
            out.append(c)
            todo.extend(c.bases)
    return out


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
        return bases_first(self)

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
