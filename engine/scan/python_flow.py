"""Engine settings kept in Python names that change before the call: a dict built and then
`.update()`d, given items (`d["k"] = v`), or spread into another (`{**BASE, …}`, `dict(BASE, **o)`),
an argv list grown with `+=`, `.append()` and `.extend()`, an argument namespace whose attributes
are set (`args.x = v`, `setattr(args, k, v)` over a dict), and plain names assigned more than once.
The statements before the call are followed in order, in every block that holds it; a change made
under a condition that cannot be decided makes what it touches uncertain rather than guessed. The values
it tracks: python_tracked.py; a container expression read as one: python_containers.py."""
from __future__ import annotations

import ast

from vllm_kb.engine.scan import python_branches
from vllm_kb.engine.scan.python_containers import ContainerReader
from vllm_kb.engine.scan.python_loops import argv_loop
from vllm_kb.engine.scan.python_scope import known_args_call
from vllm_kb.engine.scan.python_tracked import Item, Scalar, TrackedDict, TrackedList, Unknown

# the tracked values are read from here by the scanners
__all__ = ["Flow", "Item", "Scalar", "TrackedDict", "TrackedList", "Unknown"]


class Flow(ContainerReader):
    """The names of the blocks that hold a call, as they stand just before it. `resolver` decides
    conditions (`truth`) and gives the expressions of names the flow does not track."""

    def __init__(self, levels: list[tuple[list[ast.stmt], int]], resolver):
        self.vars: dict[str, object] = {}
        self.r = resolver
        self.forked: set[str] = set()  # names holding the choices of an undecided if
        for body, upto in levels:
            self._run(body[:upto], uncertain=None)
            st = body[upto]
            if isinstance(st, (ast.For, ast.AsyncFor)):
                self._loop_targets(st)

    def get(self, name: str):
        return self.vars.get(name)

    def materialise(self, got, resolver, node):
        """The Python value of a tracked name (raises the resolver's Unresolved)."""
        from vllm_kb.engine.scan.python_values import Unresolved

        if isinstance(got, Unknown):
            raise Unresolved(node, got.why)
        if isinstance(got, Scalar):
            if got.left_out:  # only a command-line reader joins the certain pieces and reports the rest
                raise Unresolved(node, f"`{ast.unparse(node)}` grows {got.left_out[0][1]}")
            if got.item.uncertain:
                raise Unresolved(node, f"`{ast.unparse(node)}` {got.item.uncertain}")
            if got.item.node is None:
                raise Unresolved(node)
            return resolver.value(got.item.node)
        items = got.items.values() if isinstance(got, TrackedDict) else got.items
        if got.unknown:
            raise Unresolved(node, f"`{ast.unparse(node)}` takes `{got.unknown[0]}`, which is not followed")
        bad = next((i for i in items if i.uncertain or i.node is None), None)
        if bad is not None:
            raise Unresolved(node, f"part of `{ast.unparse(node)}` is set {bad.uncertain or 'at run time'}")
        if isinstance(got, TrackedDict):
            return {k: resolver.value(i.node) for k, i in got.items.items()}
        return [resolver.value(i.node) for i in got.items]

    def _run(self, stmts: list[ast.stmt], uncertain: str | None) -> None:
        for st in stmts:
            self._stmt(st, uncertain)

    def _set(self, name: str, value, uncertain: str | None) -> None:
        if not uncertain:
            self.vars[name] = value
            return
        cur = self.vars.get(name)
        if isinstance(cur, (TrackedDict, TrackedList)) and isinstance(value, type(cur)):
            cur.unknown.append(f"`{name}` reassigned {uncertain}")
        else:
            self.vars[name] = Unknown(f"is assigned {uncertain}")

    def _stmt(self, st: ast.stmt, uncertain: str | None) -> None:
        for name in [n for n in self.forked if python_branches.mutates(st, n)]:
            self.forked.discard(name)
            v = self.vars.get(name)
            if isinstance(v, Unknown):
                self.vars[name] = Unknown(v.why)  # changed after the branches: each choice is no longer the command
        if isinstance(st, (ast.Assign, ast.AnnAssign)) and (len(st.targets) == 1 if isinstance(st, ast.Assign) else st.value is not None):
            t = st.targets[0] if isinstance(st, ast.Assign) else st.target
            if isinstance(t, ast.Name) and st.value is not None:
                got = self._container(st.value)
                if got is not None:
                    self._set(t.id, got, uncertain)
                elif any(isinstance(n, ast.Name) and n.id == t.id for n in ast.walk(st.value)):
                    self._set(t.id, Unknown(f"`{t.id}` is recomputed from itself"), None)
                else:
                    self._set(t.id, Scalar(Item(st.value, (t, st.value), uncertain)), uncertain)
                return
            if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and isinstance(self.vars.get(t.value.id), TrackedDict):
                key = self._key(t.slice)
                d = self.vars[t.value.id]
                assert isinstance(d, TrackedDict)
                if key is None:
                    d.unknown.append(ast.unparse(t))
                else:
                    d.items[key] = Item(st.value, (t, st.value), uncertain)
                return
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and isinstance(self.vars.get(t.value.id), TrackedDict):
                d = self.vars[t.value.id]
                assert isinstance(d, TrackedDict)
                d.items[t.attr] = Item(st.value, (t, st.value), uncertain)
                return
        if isinstance(st, ast.AugAssign) and isinstance(st.target, ast.Name):
            cur = self.vars.get(st.target.id)
            if isinstance(cur, TrackedList) and isinstance(st.op, ast.Add):
                self._extend(cur, st.value, uncertain)
            elif isinstance(cur, TrackedDict) and isinstance(st.op, ast.BitOr):
                self._update(cur, [st.value], [], uncertain)
            elif isinstance(cur, Scalar) and isinstance(st.op, ast.Add) and not cur.item.uncertain and cur.item.node is not None \
                    and _text_like(cur.item.node) and _text_like(st.value):
                # `cmd += f" --model {m}"`: a command line grown piece by piece is its pieces joined; a piece
                # added under an undecided condition is left out and reported, as a list's item is
                if uncertain:
                    cur.left_out += ((ast.unparse(st.value), uncertain),)
                else:
                    grown = ast.copy_location(ast.BinOp(cur.item.node, ast.Add(), st.value), st)
                    self.vars[st.target.id] = Scalar(Item(grown, (st.target, st.value), None), cur.left_out)
            else:
                self.vars[st.target.id] = Unknown(f"`{st.target.id}` is changed with {type(st.op).__name__}")
            return
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
            self._call(st.value, uncertain)
            return
        if isinstance(st, ast.If):
            t = self.r.truth(st.test)
            if t is True:
                self._run(st.body, uncertain)
            elif t is False:
                self._run(st.orelse, uncertain)
            else:
                why = uncertain or f"only when `{ast.unparse(st.test)}`"
                self._run(st.body, why)
                self._run(st.orelse, why)
                for name, values in (python_branches.choices(st) if uncertain is None else {}).items():
                    if isinstance(self.vars.get(name), Unknown):
                        self.vars[name] = Unknown(f"is assigned in each branch of `if {ast.unparse(st.test)}`", values)
                        self.forked.add(name)
            return
        if isinstance(st, (ast.For, ast.AsyncFor)) and (self._setattr_loop(st, uncertain) or argv_loop(self, st, uncertain, self._is_list)):
            return
        if isinstance(st, (ast.For, ast.AsyncFor, ast.While)):
            self._loop_targets(st)
            self._run(st.body, uncertain or "inside a loop")
            return
        if isinstance(st, (ast.With, ast.AsyncWith)):
            self._stores(st.items, uncertain or "by a with statement")
            self._run(st.body, uncertain)
            return
        if isinstance(st, ast.Try):
            self._run(st.body, uncertain)
            for h in st.handlers:
                self._run(h.body, uncertain or "when an exception is handled")
            self._run(st.orelse, uncertain)
            self._run(st.finalbody, uncertain)
            return
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            self.vars.pop(st.name, None)
            return
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Tuple) \
                and len(st.targets[0].elts) == 2 and isinstance(st.targets[0].elts[0], ast.Name) \
                and known_args_call(st.value, None) is not None:  # `args, rest = p.parse_known_args()`
            self._stores([st.targets[0].elts[1]], uncertain or "from the command line")
            self._set(st.targets[0].elts[0].id, TrackedDict(namespace="command-line"), uncertain)
            return
        self._stores([st], uncertain or f"by `{ast.unparse(st)[:40]}`")

    def _stores(self, nodes, why: str) -> None:
        """Names a statement binds in ways the flow does not follow become unknown."""
        for n in nodes:
            for x in ast.walk(n):
                if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Store):
                    self.vars[x.id] = Unknown(f"is assigned {why}")

    def _loop_targets(self, st) -> None:
        if isinstance(st, (ast.For, ast.AsyncFor)):
            for x in ast.walk(st.target):
                if isinstance(x, ast.Name):
                    self.vars[x.id] = Unknown("is a loop variable")

    def _is_list(self, name: str) -> bool:
        return isinstance(self.vars.get(name), TrackedList)

    def _setattr_loop(self, st, uncertain) -> bool:
        """`for k, v in D.items(): setattr(ns, k, v)`: every item of D set on the namespace."""
        if not (len(st.body) == 1 and isinstance(st.body[0], ast.Expr) and isinstance(st.body[0].value, ast.Call)):
            return False
        call = st.body[0].value
        if not (isinstance(call.func, ast.Name) and call.func.id == "setattr" and len(call.args) == 3):
            return False
        ns = call.args[0]
        if not (isinstance(ns, ast.Name) and isinstance(self.vars.get(ns.id), TrackedDict)):
            return False
        it = st.iter
        if not (isinstance(st.target, ast.Tuple) and len(st.target.elts) == 2 and isinstance(it, ast.Call)
                and isinstance(it.func, ast.Attribute) and it.func.attr == "items"):
            return False
        k, v = st.target.elts
        if not (isinstance(k, ast.Name) and isinstance(v, ast.Name) and isinstance(call.args[1], ast.Name)
                and call.args[1].id == k.id and isinstance(call.args[2], ast.Name) and call.args[2].id == v.id):
            return False
        target = self.vars[ns.id]
        assert isinstance(target, TrackedDict)  # checked above
        self._update(target, [it.func.value], [], uncertain)
        return True

    def _key(self, node) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        try:
            v = self.r.value(node)
        except Exception:  # noqa: BLE001 — Unresolved or anything odd: the key is unknown
            return None
        return v if isinstance(v, str) else None

    def _call(self, call: ast.Call, uncertain: str | None) -> None:
        f = call.func
        if isinstance(f, ast.Name) and f.id == "setattr" and len(call.args) == 3 and isinstance(call.args[0], ast.Name):
            cur = self.vars.get(call.args[0].id)
            if isinstance(cur, TrackedDict):
                key = self._key(call.args[1])
                if key is None:
                    cur.unknown.append(ast.unparse(call))
                else:
                    cur.items[key] = Item(call.args[2], (call.args[1], call.args[2]), uncertain)
            return
        if not (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name)):
            return
        cur = self.vars.get(f.value.id)
        if isinstance(cur, TrackedList):
            if f.attr == "append" and call.args:
                cur.items.append(Item(call.args[0], (call.args[0], call.args[0]), uncertain))
            elif f.attr == "extend" and call.args:
                self._extend(cur, call.args[0], uncertain)
            elif f.attr in ("insert", "remove", "pop", "clear", "sort", "reverse"):
                cur.unknown.append(ast.unparse(call))
        elif isinstance(cur, TrackedDict):
            if f.attr == "update":
                self._update(cur, call.args, call.keywords, uncertain)
            elif f.attr == "setdefault" and len(call.args) == 2:
                key = self._key(call.args[0])
                if key is None:
                    cur.unknown.append(ast.unparse(call))
                elif key not in cur.items:
                    cur.items[key] = Item(call.args[1], (call.args[0], call.args[1]), uncertain)
            elif f.attr == "pop" and call.args and (key := self._key(call.args[0])) is not None:
                cur.items.pop(key, None)
            elif f.attr in ("pop", "clear", "popitem"):
                cur.unknown.append(ast.unparse(call))

    def _update(self, cur: TrackedDict, args, keywords, uncertain) -> None:
        for a in args:
            src = self._container(a)
            if isinstance(src, TrackedDict):
                for k, it in src.items.items():
                    cur.items[k] = Item(it.node, it.span, uncertain or it.uncertain)
                cur.unknown += src.unknown
            else:
                cur.unknown.append(ast.unparse(a))
        for kw in keywords:
            if kw.arg is None:
                cur.unknown.append("**" + ast.unparse(kw.value))
            else:
                cur.items[kw.arg] = Item(kw.value, (kw, kw), uncertain)

    def _extend(self, cur: TrackedList, node: ast.AST, uncertain: str | None) -> None:
        src = self._container(node)
        if isinstance(src, TrackedList):
            cur.items += [Item(i.node, i.span, uncertain or i.uncertain) for i in src.items]
            cur.unknown += src.unknown
        else:
            cur.unknown.append(ast.unparse(node))


def _text_like(node: ast.expr) -> bool:
    """An expression that is a string as written: a literal, an f-string, or such pieces joined."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _text_like(node.left) and _text_like(node.right)
    return isinstance(node, ast.JoinedStr) or isinstance(node, ast.Constant) and isinstance(node.value, str)
