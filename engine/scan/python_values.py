"""Python values followed statically: constants of the module and of other project modules it
imports, assignments before the call (engine/scan/python_flow.py), function parameter defaults,
class attributes and config-class fields, argparse defaults, `os.environ` reads (a value bound by
the deployment, else the code's default), conversions, f-strings, joins and conditional
expressions. A value only known from a default carries a note; what cannot be followed is
`Unresolved` — never guessed."""
from __future__ import annotations

import ast
import operator
from typing import Any

from vllm_kb.engine.kb.textpos import LineIndex  # noqa: F401 — the type of `lines`
from vllm_kb.engine.scan import python_callers as callers_mod, python_links as links_mod
from vllm_kb.engine.scan import python_value_calls as value_calls
from vllm_kb.engine.scan.python_scope import ParamDefault, Scope, Unresolved, assignments, statements, walk, walk_no_defs  # noqa: F401 — re-exported
from vllm_kb.engine.scan.python_scope import is_environ as _is_environ

_walk_no_defs = walk_no_defs  # the name python_process imports from here


_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
           ast.Div: operator.truediv, ast.Mod: operator.mod}
_CMPOPS = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt,
           ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
           ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b}


class _Resolver:
    """Evaluates an expression node. `flow`: containers and names as they stand before the call;
    `links`: the module's imports; `cls`: the class a method belongs to (for `self.X`); `env`:
    environment variables a deployment sets for this file."""

    def __init__(self, scope: Scope, calls: dict[int, ast.Call], lines: LineIndex, links=None, flow=None,
                 cls: ast.ClassDef | None = None, env: dict[str, str] | None = None, tree: ast.Module | None = None):
        self.scope = scope
        self.calls = calls  # id(call node) of target calls, for **asdict(x)
        self.lines = lines
        self.links = links
        self.flow = flow
        self.cls = cls
        self.env = env or {}
        self.tree = tree
        self.spawners: Any = None  # python_argv.Spawners of the file, for the subprocess argv sites
        self.depth = 0
        self.assumed: str | None = None  # set when a value is only a default (os.environ.get, a parameter)
        self.env_where: dict[str, str] = {}  # variable → the env file line (`.env:3`) it came from
        self.env_unknown: dict[str, str] = {}  # variable → why the env file's value is unknown
        self.from_env: str | None = None  # set when a value came from an env file

    def value(self, node: ast.AST) -> Any:
        self.depth += 1
        try:
            if self.depth > 60:
                raise Unresolved(node, "too deep")
            return self._value(node)
        finally:
            self.depth -= 1

    def value_or(self, node: ast.AST | None, default: Any = None) -> Any:
        """The value, or `default` where there is no node or the code leaves it unresolved."""
        if node is None:
            return default
        try:
            return self.value(node)
        except Unresolved:
            return default

    def truth(self, node: ast.AST) -> bool | None:
        """A condition decided from what the code itself fixes; None when it depends on a default
        (a parameter, an environment variable) or on anything unknown."""
        saved = self.assumed
        self.assumed = None
        try:
            v = self.value(node)
            return None if self.assumed else bool(v)
        except Unresolved:
            return None
        except Exception:  # noqa: BLE001 — comparing unrelated types, …
            return None
        finally:
            self.assumed = saved

    def elsewhere(self, node: ast.AST, scope: Scope, links, cls=None, tree=None) -> Any:
        """A node of another scope (a class body; another module, with its `tree`): its own names."""
        saved = (self.scope, self.links, self.flow, self.cls, self.tree)
        self.scope, self.links, self.flow, self.cls, self.tree = scope, links, None, cls, tree or self.tree
        try:
            return self.value(node)
        finally:
            self.scope, self.links, self.flow, self.cls, self.tree = saved

    def _assume(self, why: str) -> None:
        if self.assumed is None:
            self.assumed = why

    def _value(self, node):
        if isinstance(node, ParamDefault):
            if (got := callers_mod.value(self, node, Unresolved)) is not callers_mod.NONE:
                return got  # what the module's own calls of the function pass
            if node.node is None:
                raise Unresolved(node, f"`{node.name}` is a parameter the caller gives")
            self._assume(f"default of parameter `{node.name}`")
            return self.value(node.node)
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return self._name(node)
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            out = []
            for e in node.elts:
                if isinstance(e, ast.Starred):
                    sub = self.value(e.value)
                    if not isinstance(sub, (list, tuple)):
                        raise Unresolved(e)
                    out += list(sub)
                else:
                    out.append(self.value(e))
            return out
        if isinstance(node, ast.Dict):
            out = {}
            for k, v in zip(node.keys, node.values):
                if k is None:
                    sub = self.value(v)
                    if not isinstance(sub, dict):
                        raise Unresolved(v)
                    out.update(sub)
                else:
                    out[self.value(k)] = self.value(v)
            return out
        if isinstance(node, ast.UnaryOp):
            v = self.value(node.operand)
            if isinstance(node.op, ast.Not):
                return not v
            if isinstance(node.op, (ast.USub, ast.UAdd)) and isinstance(v, (int, float)) and not isinstance(v, bool):
                return -v if isinstance(node.op, ast.USub) else v
        if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
            a, b = self.value(node.left), self.value(node.right)
            if all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b)) and abs(a) < 1e15 and abs(b) < 1e15:
                try:
                    return _BINOPS[type(node.op)](a, b)
                except ZeroDivisionError:
                    raise Unresolved(node, "division by zero") from None
            if isinstance(a, str) and isinstance(b, str) and isinstance(node.op, ast.Add):
                return a + b
            if isinstance(a, list) and isinstance(b, list) and isinstance(node.op, ast.Add):
                return a + b
        if isinstance(node, ast.BoolOp):
            return self._boolop(node)
        if isinstance(node, ast.Compare) and all(type(op) in _CMPOPS for op in node.ops):
            left = self.value(node.left)
            for op, right_node in zip(node.ops, node.comparators):
                right = self.value(right_node)
                if not _CMPOPS[type(op)](left, right):
                    return False
                left = right
            return True
        if isinstance(node, ast.IfExp):
            t = self.truth(node.test)
            if t is None:
                raise Unresolved(node, f"depends on `{ast.unparse(node.test)}`")
            return self.value(node.body if t else node.orelse)
        if isinstance(node, ast.JoinedStr):
            return self._fstring(node)
        if isinstance(node, ast.Attribute):
            return self._attribute(node)
        if isinstance(node, ast.Subscript):
            return self._subscript(node)
        if isinstance(node, ast.Call):
            return value_calls.call_value(self, node)
        raise Unresolved(node)

    def _boolop(self, node: ast.BoolOp):
        last = None
        for v in node.values:
            last = self.value(v)
            if isinstance(node.op, ast.And) and not last:
                return last
            if isinstance(node.op, ast.Or) and last:
                return last
        return last

    def _fstring(self, node: ast.JoinedStr) -> str:
        out = []
        for part in node.values:
            if isinstance(part, ast.Constant):
                out.append(str(part.value))
            elif isinstance(part, ast.FormattedValue):
                v = self.value(part.value)
                if isinstance(part.format_spec, ast.JoinedStr):
                    spec = self._fstring(part.format_spec)
                    try:
                        out.append(format(v, spec))
                    except (ValueError, TypeError):
                        raise Unresolved(part) from None
                else:
                    out.append(repr(v) if part.conversion == ord("r") else str(v))
            else:
                raise Unresolved(part)
        return "".join(out)

    def _name(self, node: ast.Name):
        if node.id in ("True", "False", "None"):
            return {"True": True, "False": False, "None": None}[node.id]
        if self.flow is not None:
            got = self.flow.get(node.id)
            if got is not None:
                return self.flow.materialise(got, self, node)
        target = self.scope.lookup(node.id)
        if target is not None:
            return self.value(target)
        if self.links is not None:
            got = self.links.constant(node.id)
            if got is not None:
                value_node, links, scope = got
                return self.elsewhere(value_node, scope, links)
        raise Unresolved(node, f"`{node.id}` is not a literal constant here")

    def node_of(self, node: ast.AST, hops: int = 0):
        """The expression a name stands for, without evaluating it: (node, scope, links), with
        parameter defaults followed (and noted)."""
        while isinstance(node, (ast.Name, ParamDefault)) and hops < 20:
            hops += 1
            if isinstance(node, ParamDefault):
                if node.node is None:
                    return callers_mod.parsed_args(self, node)  # `run(parser.parse_args())`
                self._assume(f"default of parameter `{node.name}`")
                node = node.node
                continue
            if self.flow is not None and self.flow.get(node.id) is not None:
                got = self.flow.get(node.id)
                item = getattr(got, "item", None)
                if item is None or item.node is None or item.uncertain:
                    return None
                node = item.node
                continue
            target = self.scope.lookup(node.id)
            if target is None:
                return None
            node = target
        return node

    def _attribute(self, node: ast.Attribute):
        base = node.value
        if isinstance(base, ast.Name) and self.links is not None and base.id in self.links.modules:
            got = self.links.constant(base.id, node.attr)
            if got is None:
                raise Unresolved(node, f"`{ast.unparse(node)}` is not a constant of that module")
            value_node, links, scope = got
            return self.elsewhere(value_node, scope, links)
        if isinstance(base, ast.Name) and base.id == "self" and self.cls is not None:
            attrs = links_mod.class_attributes(self.cls)
            if "self." + node.attr in attrs:
                root = self.scope
                while root.parent is not None:
                    root = root.parent
                return self.elsewhere(attrs["self." + node.attr], Scope(assignments(self.cls.body), root), self.links, self.cls)
            if (got := callers_mod.self_attr(self, node.attr)) is not callers_mod.NONE:
                return got  # set in __init__ from what the class's instantiations pass
            raise Unresolved(node, f"`self.{node.attr}` is set at run time")
        ns = self.flow.get(base.id) if isinstance(base, ast.Name) and self.flow is not None else None
        if ns is not None and getattr(ns, "namespace", None) is not None:
            it = ns.items.get(node.attr)
            if it is not None:
                if it.uncertain or it.node is None:
                    raise Unresolved(node, f"`{ast.unparse(node)}` is set {it.uncertain or 'at run time'}")
                return self.value(it.node)
            if ns.namespace == "command-line" and self.tree is not None and not ns.unknown:
                return self._argparse(node)
            raise Unresolved(node, f"`{ast.unparse(node)}` is not set in the code")
        obj = self.node_of(base)
        if isinstance(obj, ast.Call):
            name = obj.func.attr if isinstance(obj.func, ast.Attribute) else obj.func.id if isinstance(obj.func, ast.Name) else ""
            if self.tree is not None and (name == "parse_args" or links_mod.parses_args(self.tree, obj)):
                return self._argparse(node)
            if name == "use_arguments" and obj.args and isinstance(obj.args[0], ast.Name) and self.links is not None:
                return self._build_args(node, obj.args[0].id)
            cls = self.links.config_class(name) if self.links is not None and name else None
            if cls is not None:
                value_node = links_mod.field_of(cls, obj, node.attr)
                if value_node is not None:
                    return self.value(value_node)
        try:
            v = self.value(base)
        except Unresolved:
            raise Unresolved(node, f"`{ast.unparse(node)}` is not followed") from None
        if isinstance(v, dict) and node.attr in v:
            return v[node.attr]
        raise Unresolved(node)

    def _argparse(self, node: ast.Attribute):
        """`args.X` of `parser.parse_args()`: the default of the option (the command line may say otherwise)."""
        assert self.tree is not None  # the caller reads a namespace only with the module's tree
        got = links_mod.argparse_default(self.tree, node.attr)
        if got is None:
            raise Unresolved(node, f"`{ast.unparse(node)}` comes from the command line")
        default, flag, kind = got
        self._assume(f"default of {flag}")
        v = self.value(default) if isinstance(default, ast.AST) else default
        try:
            return kind(v) if kind is not None and isinstance(v, str) else v
        except ValueError:
            raise Unresolved(node, f"the default of {flag} is not a {kind.__name__}") from None

    def _build_args(self, node: ast.Attribute, cls_name: str):
        """`bentoml.use_arguments(Args).x`: the project's `[tool.bentoml.build.args]`, else the
        class's default (which `bentoml build --arg` may replace)."""
        given = links_mod.bentoml_build_args(self.links.ctx, self.links.rel)
        if node.attr in given:
            return given[node.attr]
        cls = self.links.config_class(cls_name)
        attrs = links_mod.class_attributes(cls) if cls is not None else {}
        if "self." + node.attr not in attrs:
            raise Unresolved(node, f"`{ast.unparse(node)}` is not a field of {cls_name}")
        self._assume(f"default of {cls_name}.{node.attr}")
        root = self.scope
        while root.parent is not None:
            root = root.parent
        return self.elsewhere(attrs["self." + node.attr], Scope(assignments(cls.body), root), self.links, cls)

    def _subscript(self, node: ast.Subscript):
        if _is_environ(node.value):
            name = self.value(node.slice)
            if name in self.env:
                return self._env(name)
            raise Unresolved(node, self.env_unknown.get(name) or f"os.environ[{name!r}] is set at run time")
        container = self.value(node.value)
        key = self.value(node.slice)
        try:
            return container[key]
        except (KeyError, IndexError, TypeError):
            raise Unresolved(node) from None

    def _env(self, name: str):
        if name in self.env_where and self.from_env is None:
            self.from_env = f"{name} at {self.env_where[name]}"
        return self.env[name]
