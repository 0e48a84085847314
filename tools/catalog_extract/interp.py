"""The interpreter's calls and statements: functions, bound methods, the few builtins and
argparse/dataclass behaviours vLLM's parser construction relies on, blocks and assignments,
and field defaults."""
from __future__ import annotations

import ast
import json

from catalog_extract.interp_expr import ExprEval
from catalog_extract.sources import (
    ClassInfo,
    Module,
    hints,
    literal_choices,
)
from catalog_extract.values import (
    _BINOPS,
    MAX_DEPTH,
    STEP_BUDGET,
    UNSET,
    Bound,
    Builtin,
    ClassRef,
    Environ,
    FieldSpec,
    Frame,
    FuncRef,
    Parser,
    Stop,
    Subparsers,
    SuperRef,
    Sym,
    is_concrete,
)


class Interp(ExprEval):
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
            feats = {"dataclass_first": False, "optional_str_bool": False, "literal_str_metavar": False}
            mod = self.src.module("vllm.engine.arg_utils")
            node = mod.defs.get("literal_to_kwargs") if mod else None
            # 0.10.1+: a Literal that also admits str gets a metavar, not choices (any string passes)
            feats["literal_str_metavar"] = isinstance(node, ast.FunctionDef) and "'metavar' if" in ast.unparse(node)
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
            elif "lit" in kinds and feats["literal_str_metavar"] and "str" in kinds:
                kw["metavar"] = literal_choices(hs)
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
