"""A small evaluator of the Python in which vLLM's attention backends state what they take
(`supports_head_size`, `supported_dtypes`, `supports_compute_capability`, `is_sparse` …): classes
are loaded from a release's sources on demand with their bases, methods are run on constants, and
anything else — an import of a kernel, a configuration only known at run time — raises Unknown,
so the caller reads the rule as not known. Used by tools/vllm_attn_selector.py.

The GPU probes the rules call (`current_platform.get_device_capability()`,
`is_device_capability_family(90)`, FlashAttention's `get_flash_attn_version()` …) are answered for
one device at a time (tools/backend_probes.py `on_device`): the release's own helper functions
are run from its sources; only the compiled vllm-flash-attn package's answer is modelled."""
from __future__ import annotations

import ast
from pathlib import Path

from backend_probes import ENV_DEFAULTS, Cap, Config, Unknown, fa_supported, platform_call
from catalog_extract.sources import bases_first


_MODULES: dict[tuple[Path, str], "Module"] = {}


class Func:
    """A module-level function of the release, called by name from a rule."""

    def __init__(self, node: ast.FunctionDef, module: "Module"):
        self.node, self.module = node, module


class Scope:
    """Where a module-level function's names resolve (what Klass gives a method)."""

    def __init__(self, module: "Module"):
        self.module = module


def _function(module: "Module", name: str, depth: int = 0):
    """The module-level function `name` as seen from `module` (its own, or one it imports)."""
    node = next((n for n in module.tree.body if isinstance(n, ast.FunctionDef) and n.name == name), None)
    if node is not None:
        return Func(node, module)
    target = module.imports.get(name)
    if target is None or depth > 4:
        raise Unknown(name)
    mod_name, _, fname = target.rpartition(".")
    return _function(_module(module.root, mod_name), fname, depth + 1)


def _module_literal(module: "Module", name: str):
    """A module-level constant written as a literal (`_HANDLERS: dict[…] = {}`)."""
    for st in module.tree.body:
        target = st.target if isinstance(st, ast.AnnAssign) else None
        if isinstance(st, ast.Assign) and len(st.targets) == 1:
            target = st.targets[0]
        if isinstance(target, ast.Name) and target.id == name and st.value is not None:
            try:
                return ast.literal_eval(st.value)
            except ValueError:
                break
    raise Unknown(name)


def _module(root: Path, dotted: str) -> "Module":
    if (root, dotted) not in _MODULES:
        _MODULES[(root, dotted)] = Module(root, dotted)
    return _MODULES[(root, dotted)]


def _call_func(f: Func, args: list, kwargs: dict):
    params = [a.arg for a in f.node.args.args]
    defaults = f.node.args.defaults
    env: dict = {}
    for i, p in enumerate(params):
        if i < len(args):
            env[p] = args[i]
        elif p in kwargs:
            env[p] = kwargs[p]
        elif i >= len(params) - len(defaults):
            env[p] = ast.literal_eval(defaults[i - (len(params) - len(defaults))])
        else:
            raise Unknown(f"argument {p}")
    for a, d in zip(f.node.args.kwonlyargs, f.node.args.kw_defaults):
        if a.arg in kwargs:
            env[a.arg] = kwargs[a.arg]
        elif d is not None:
            env[a.arg] = ast.literal_eval(d)
        else:
            raise Unknown(f"argument {a.arg}")
    r = _exec(f.node.body, env, Scope(f.module))
    return r[1] if r else None


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
        if node.id in ("str", "int", "bool"):
            return {"str": str, "int": int, "bool": bool}[node.id]
        if node.id in ENV_DEFAULTS:  # a module constant read from the variable (batch_invariant.py)
            return ENV_DEFAULTS[node.id]
        return _module_literal(k.module, node.id)
    if isinstance(node, ast.JoinedStr):
        return "<f-string>"  # only ever a message: its truth is all a rule reads
    if isinstance(node, ast.Subscript):
        base, idx = _ev(node.value, env, k), _ev(node.slice, env, k)
        if isinstance(base, Cap) and idx in (0, 1):
            return base.key()[idx]
        if isinstance(base, (list, tuple, str)) and isinstance(idx, int):
            return base[idx]
        raise Unknown(ast.unparse(node))
    if isinstance(node, ast.Attribute):
        if isinstance(node.value, ast.Name) and node.value.id == "envs":
            if node.attr in ENV_DEFAULTS:
                return ENV_DEFAULTS[node.attr]
            raise Unknown(ast.unparse(node))
        base_cfg = _ev(node.value, env, k) if isinstance(node.value, (ast.Call, ast.Attribute, ast.Name)) \
            and ast.unparse(node.value).startswith(("get_current_vllm_config", "vllm_config")) else None
        if isinstance(base_cfg, Config):
            return base_cfg.get(node.attr)
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
            if isinstance(op, (ast.Is, ast.IsNot)):
                lv, rv = left, right
            elif isinstance(left, Cap) or isinstance(right, Cap):
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
        if isinstance(f, ast.Name) and f.id == "isinstance" and len(args) == 2 and isinstance(args[1], type):
            return isinstance(args[0], args[1])
        if isinstance(f, ast.Name) and f.id in ("len", "bool", "int", "set", "list", "tuple", "str"):
            return {"len": len, "bool": bool, "int": int, "set": set, "list": list, "tuple": tuple, "str": str}[f.id](*args)
        if isinstance(f, ast.Attribute) and f.attr == "to_int" and not node.args:
            c = _ev(f.value, env, k)
            if isinstance(c, Cap):
                return c.major * 10 + c.minor
        if isinstance(f, ast.Attribute) and f.attr == "get" and len(args) == 1:
            d = _ev(f.value, env, k)
            if isinstance(d, dict):
                return d.get(args[0])  # an empty registry plugins fill at run time holds no built-in name
        if isinstance(f, ast.Attribute) and f.attr in ("startswith", "endswith"):
            s = _ev(f.value, env, k)
            if isinstance(s, str):
                return getattr(s, f.attr)(*args)
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in ("cls", "self") and f.value.id in env:
            kind, fn, owner = env[f.value.id].lookup(f.attr)
            if kind == "fn":
                return call(env[f.value.id], fn, args)
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "current_platform":
            return platform_call(f.attr, args)
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Call):
            base = _ev(f.value, env, k)  # current_platform.get_device_capability().to_int() …
            if isinstance(base, Cap) and f.attr == "to_int":
                return base.major * 10 + base.minor
        if isinstance(f, ast.Name):
            if f.id == "is_fa_version_supported":
                return fa_supported(args[0] if args else None)
            if f.id in ("get_current_vllm_config_or_none",):
                return None  # no configuration is current while the selector asks a class
            if f.id == "get_current_vllm_config":
                return Config(())
            kwargs = {x.arg: _ev(x.value, env, k) for x in node.keywords if x.arg}
            ref = env.get(f.id)
            if isinstance(ref, tuple) and ref[0] == "import":
                target = _function(_module(k.module.root, ref[1]), ref[2])
            else:
                target = _function(k.module, f.id)
            return _call_func(target, args, kwargs)
        raise Unknown(ast.unparse(node))
    raise Unknown(type(node).__name__)


class Raised(Exception):
    """An exception the evaluated code raises itself (a failed assert, a raise), by its class
    name, with the line of the raise."""

    def __init__(self, name: str, line: int | None = None):
        super().__init__(name)
        self.line = line


def _is_log(st: ast.stmt) -> bool:
    return (isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and isinstance(st.value.func, ast.Attribute)
            and isinstance(st.value.func.value, ast.Name) and st.value.func.value.id == "logger")


def _exec(body: list[ast.stmt], env: dict, k):
    for st in body:
        if isinstance(st, ast.Return):
            return ("ret", _ev(st.value, env, k) if st.value is not None else None)
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant) or _is_log(st):
            continue
        if isinstance(st, ast.ImportFrom) and st.module:
            for a in st.names:
                env[a.asname or a.name] = ("import", st.module, a.name)
            continue
        if isinstance(st, (ast.Import, ast.Pass)):
            continue
        if isinstance(st, ast.Raise) and st.exc is not None:
            exc = st.exc.func if isinstance(st.exc, ast.Call) else st.exc
            raise Raised(exc.id if isinstance(exc, ast.Name) else ast.unparse(exc), st.lineno)
        if isinstance(st, ast.Assert):
            if not _ev(st.test, env, k):
                raise Raised("AssertionError")
            continue
        if isinstance(st, ast.Try):
            try:
                r = _exec(st.body, env, k)
            except Raised as e:
                caught = next((h for h in st.handlers if h.type is None or str(e) in ast.unparse(h.type)), None)
                if caught is None:
                    raise
                r = _exec(caught.body, env, k)
            if r is not None:
                return r
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
    except (Unknown, Raised, RecursionError, TypeError, ValueError, AttributeError, IndexError, KeyError):
        return None
