"""A small evaluator of the Python in which vLLM's attention backends state what they take
(`supports_head_size`, `supported_dtypes`, `supports_compute_capability`, `is_sparse` …): classes
are loaded from a release's sources on demand with their bases, methods are run on constants, and
anything else — a runtime probe, an import of a kernel — raises Unknown, so the caller reads the
rule as not known. Used by tools/vllm_attn_selector.py."""
from __future__ import annotations

import ast
from pathlib import Path

from catalog_extract.sources import bases_first


class Unknown(Exception):
    """The evaluator met something it does not model."""


class Cap:
    """DeviceCapability(major, minor) with its comparisons and to_int()."""

    def __init__(self, major: int, minor: int):
        self.major, self.minor = major, minor

    def key(self):
        return (self.major, self.minor)


class Klass:
    def __init__(self, name: str, node: ast.ClassDef, module: "Module", bases: list["Klass"]):
        self.name, self.node, self.module, self.bases = name, node, module, bases

    def lookup(self, attr: str):
        for b in self.mro():
            for st in b.node.body:
                if isinstance(st, ast.FunctionDef) and st.name == attr:
                    return ("fn", st, b)
                if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.target.id == attr and st.value:
                    return ("val", st.value, b)
                if isinstance(st, ast.Assign) and any(isinstance(t, ast.Name) and t.id == attr for t in st.targets):
                    return ("val", st.value, b)
        raise Unknown(attr)

    def mro(self):
        return bases_first(self)


class Module:
    def __init__(self, root: Path, dotted: str):
        self.root, self.dotted = root, dotted
        path = root / (dotted.replace(".", "/") + ".py")
        self.path = path
        self.tree = ast.parse(path.read_text(encoding="utf-8", errors="replace")) if path.is_file() else ast.Module(body=[], type_ignores=[])
        self.imports: dict[str, str] = {}
        for node in ast.walk(self.tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                for a in node.names:
                    self.imports[a.asname or a.name] = f"{node.module}.{a.name}"


class World:
    """The classes of one release, loaded on demand."""

    def __init__(self, root: Path):
        self.root, self.mods, self.classes = root, {}, {}

    def module(self, dotted: str) -> Module:
        if dotted not in self.mods:
            self.mods[dotted] = Module(self.root, dotted)
        return self.mods[dotted]

    def klass(self, qual: str, depth: int = 0) -> Klass | None:
        if qual in self.classes or depth > 8:
            return self.classes.get(qual)
        mod_name, _, name = qual.rpartition(".")
        mod = self.module(mod_name)
        node = next((n for n in mod.tree.body if isinstance(n, ast.ClassDef) and n.name == name), None)
        if node is None:
            self.classes[qual] = None
            return None
        bases = []
        for b in node.bases:
            bname = b.id if isinstance(b, ast.Name) else None
            if bname in ("ABC", "Generic", None, "object"):
                continue
            target = mod.imports.get(bname, f"{mod_name}.{bname}")
            k = self.klass(target, depth + 1)
            if k is not None:
                bases.append(k)
        k = Klass(name, node, mod, bases)
        self.classes[qual] = k
        return k


def _ev(node: ast.AST, env: dict, k: Klass):
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        out = []
        for e in node.elts:
            if isinstance(e, ast.Starred):
                out.extend(_ev(e.value, env, k))
            else:
                out.append(_ev(e, env, k))
        return out
    if isinstance(node, ast.Name):
        if node.id in env:
            return env[node.id]
        if node.id in ("True", "False", "None"):
            return {"True": True, "False": False, "None": None}[node.id]
        raise Unknown(node.id)
    if isinstance(node, ast.Attribute):
        if isinstance(node.value, ast.Name) and node.value.id == "torch":
            return node.attr  # torch.bfloat16 → "bfloat16"
        if isinstance(node.value, ast.Name) and node.value.id == "AttentionType":
            return node.attr.lower()
        base = _ev(node.value, env, k)
        if isinstance(base, Klass):
            kind, val, owner = base.lookup(node.attr)
            return _ev(val, {}, owner) if kind == "val" else ("method", val, base)
        if isinstance(base, Cap) and node.attr in ("major", "minor"):
            return getattr(base, node.attr)
        raise Unknown(ast.unparse(node))
    if isinstance(node, ast.BoolOp):
        vals = None
        for v in node.values:
            vals = _ev(v, env, k)
            if isinstance(node.op, ast.And) and not vals:
                return vals
            if isinstance(node.op, ast.Or) and vals:
                return vals
        return vals
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return not _ev(node.operand, env, k)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_ev(node.operand, env, k)
    if isinstance(node, ast.BinOp):
        a, b = _ev(node.left, env, k), _ev(node.right, env, k)
        ops = {ast.Mod: lambda: a % b, ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b,
               ast.FloorDiv: lambda: a // b}
        if type(node.op) in ops and not isinstance(a, (Cap, Klass)) and not isinstance(b, (Cap, Klass)):
            return ops[type(node.op)]()
        raise Unknown(ast.unparse(node))
    if isinstance(node, ast.IfExp):
        return _ev(node.body if _ev(node.test, env, k) else node.orelse, env, k)
    if isinstance(node, ast.Compare):
        left = _ev(node.left, env, k)
        for op, right_node in zip(node.ops, node.comparators):
            right = _ev(right_node, env, k)
            if isinstance(left, Cap) or isinstance(right, Cap):
                if not (isinstance(left, Cap) and isinstance(right, Cap)):
                    raise Unknown("capability compared with a number")
                lv, rv = left.key(), right.key()
            else:
                lv, rv = left, right
            ok = {ast.Eq: lambda: lv == rv, ast.NotEq: lambda: lv != rv, ast.Lt: lambda: lv < rv, ast.LtE: lambda: lv <= rv,
                  ast.Gt: lambda: lv > rv, ast.GtE: lambda: lv >= rv, ast.In: lambda: lv in rv, ast.NotIn: lambda: lv not in rv,
                  ast.Is: lambda: lv is rv, ast.IsNot: lambda: lv is not rv}.get(type(op))
            if ok is None or not ok():
                return False
            left = right
        return True
    if isinstance(node, ast.Call):
        f = node.func
        args = [_ev(a, env, k) for a in node.args]
        if isinstance(f, ast.Name) and f.id == "DeviceCapability":
            kw = {x.arg: _ev(x.value, env, k) for x in node.keywords}
            vals = args + [kw.get("major"), kw.get("minor", 0)][len(args):]
            return Cap(int(vals[0]), int(vals[1] or 0))
        if isinstance(f, ast.Name) and f.id in ("len", "bool", "int", "set", "list", "tuple"):
            return {"len": len, "bool": bool, "int": int, "set": set, "list": list, "tuple": tuple}[f.id](*args)
        if isinstance(f, ast.Attribute) and f.attr == "to_int" and not node.args:
            c = _ev(f.value, env, k)
            if isinstance(c, Cap):
                return c.major * 10 + c.minor
        if isinstance(f, ast.Attribute) and f.attr == "startswith":
            s = _ev(f.value, env, k)
            if isinstance(s, str):
                return s.startswith(*args)
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in ("cls", "self") and f.value.id in env:
            kind, fn, owner = env[f.value.id].lookup(f.attr)
            if kind == "fn":
                return call(env[f.value.id], fn, args)
        raise Unknown(ast.unparse(node))
    raise Unknown(type(node).__name__)


def _exec(body: list[ast.stmt], env: dict, k: Klass):
    for st in body:
        if isinstance(st, ast.Return):
            return ("ret", _ev(st.value, env, k) if st.value is not None else None)
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant):
            continue
        if isinstance(st, (ast.Import, ast.ImportFrom, ast.Pass)):
            continue
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            env[st.targets[0].id] = _ev(st.value, env, k)
            continue
        if isinstance(st, ast.If):
            r = _exec(st.body if _ev(st.test, env, k) else st.orelse, env, k)
            if r is not None:
                return r
            continue
        raise Unknown(type(st).__name__)
    return None


def call(k: Klass, fn: ast.FunctionDef, args: list):
    params = [a.arg for a in fn.args.args]
    decos = {d.id if isinstance(d, ast.Name) else getattr(d, "attr", "") for d in fn.decorator_list}
    env: dict = {}
    if "staticmethod" not in decos:
        env[params[0]] = k
        params = params[1:]
    defaults = fn.args.defaults
    for i, p in enumerate(params):
        if i < len(args):
            env[p] = args[i]
        elif i >= len(params) - len(defaults):
            env[p] = ast.literal_eval(defaults[i - (len(params) - len(defaults))])
    r = _exec(fn.body, env, k)
    return r[1] if r else None


def probe(k: Klass, method: str, *args):
    try:
        kind, fn, _owner = k.lookup(method)
        return call(k, fn, list(args)) if kind == "fn" else None
    except (Unknown, RecursionError, TypeError, ValueError, AttributeError, IndexError, KeyError):
        return None
