"""The interpreter's expressions: one `_e_<Node>` method per ast node kind it understands;
anything else evaluates to UNSET."""
from __future__ import annotations

import ast

from catalog_extract.sources import (
    ClassInfo,
    Source,
)
from catalog_extract.values import (
    _BINOPS,
    _CMPOPS,
    _KNOWN_CONSTANTS,
    _SAFE_BUILTINS,
    _SAFE_METHODS,
    MAX_DEPTH,
    STEP_BUDGET,
    UNSET,
    Bound,
    ClassRef,
    EnumMember,
    Environ,
    Frame,
    FuncRef,
    Instance,
    ModRef,
    Parser,
    Stop,
    Subparsers,
    SuperRef,
    Sym,
    is_concrete,
)


class ExprEval:
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
