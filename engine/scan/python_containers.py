"""A dict, list or argparse-namespace expression read as the container python_flow tracks: literals
(with `**`/`*` spreads followed), `dict(BASE, k=v)`, copies, `a + b` lists, `a | b` dicts, a list an
`x if c else y` chooses, and a name's value as the flow or the scope holds it. A mixin of
python_flow.Flow."""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from vllm_kb.engine.scan import python_ifexp
from vllm_kb.engine.scan.python_scope import known_args_call
from vllm_kb.engine.scan.python_tracked import Item, TrackedDict, TrackedList, copy_tracked


class ContainerReader:
    if TYPE_CHECKING:  # what python_flow.Flow, the class this is mixed into, holds
        vars: dict[str, object]
        r: Any  # the resolver (python_values._Resolver)

        def _key(self, node) -> str | None: ...

    def _container(self, node: ast.AST, hops: int = 0):
        """A dict/list/namespace expression as a tracked container (None when it is not one)."""
        if hops > 20:
            return None
        if isinstance(node, ast.Name):
            if node.id in self.vars:
                return copy_tracked(self.vars[node.id])
            target = self.r.scope.lookup(node.id)
            return self._container(target, hops + 1) if isinstance(target, ast.AST) else None
        if isinstance(node, (ast.List, ast.Tuple)):
            out = TrackedList()
            for e in node.elts:
                if isinstance(e, ast.Starred):
                    sub = self._container(e.value, hops + 1)
                    if isinstance(sub, TrackedList):
                        out.items += sub.items
                    else:  # kept in its place: what comes after it stays after it
                        out.items.append(Item(None, (e, e)))
                        out.unknown.append("*" + ast.unparse(e.value))
                else:
                    out.items.append(Item(e, (e, e)))
            return out
        if isinstance(node, ast.Dict):
            got = TrackedDict()
            for k, v in zip(node.keys, node.values):
                if k is None:
                    self._merge_into(got, v, hops)
                elif (key := self._key(k)) is not None:
                    got.items[key] = Item(v, (k, v))
                else:
                    got.unknown.append(ast.unparse(k))
            return got
        if isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            if isinstance(f, ast.Name) and name == "dict":
                made = TrackedDict()
                for a in node.args:  # dict(BASE, k=v): a copy of BASE
                    self._merge_into(made, a, hops)
                for kw in node.keywords:
                    if kw.arg is None:
                        self._merge_into(made, kw.value, hops)
                    else:
                        made.items[kw.arg] = Item(kw.value, (kw, kw))
                return made
            if isinstance(f, ast.Name) and name in ("list", "copy", "deepcopy") and len(node.args) == 1 or \
                    isinstance(f, ast.Attribute) and name in ("copy", "deepcopy") and len(node.args) <= 1:
                return self._container(node.args[0] if node.args or not isinstance(f, ast.Attribute) else f.value, hops + 1)
            if name == "parse_args":
                return TrackedDict(namespace=_namespace_origin(node))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            a, b = self._container(node.left, hops + 1), self._container(node.right, hops + 1)
            if isinstance(a, TrackedList) and isinstance(b, TrackedList):
                return TrackedList(a.items + b.items, a.unknown + b.unknown)
            if isinstance(a, TrackedList) and b is None and isinstance(node.right, (ast.Name, ast.Attribute, ast.Call)):
                # `["docker", "run", …, image] + flags` with flags built elsewhere (madhurprash/agent-serving-lab
                # model_serve.py, eval90): the list as written, the rest a hole in its place, as `*flags` is
                return TrackedList(a.items + [Item(None, (node.right, node.right))], a.unknown + ["*" + ast.unparse(node.right)])
        if isinstance(node, ast.IfExp):
            return python_ifexp.chosen(self, node, hops)
        if isinstance(node, ast.Subscript) and known_args_call(node, 0) is not None:  # `p.parse_known_args()[0]`
            return TrackedDict(namespace="command-line")
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            a, b = self._container(node.left, hops + 1), self._container(node.right, hops + 1)
            if isinstance(a, TrackedDict) and isinstance(b, TrackedDict):
                return TrackedDict({**a.items, **b.items}, a.unknown + b.unknown)
        return None

    def _merge_into(self, out: TrackedDict, node: ast.AST, hops: int) -> None:
        src = self._container(node, hops + 1)
        if isinstance(src, TrackedDict):
            out.items.update(src.items)
            out.unknown += src.unknown
        else:
            out.unknown.append("**" + ast.unparse(node))


def _namespace_origin(call: ast.Call) -> str:
    """`make_arg_parser(FlexibleArgumentParser()).parse_args([])`: vLLM's own defaults; any other
    parser's `parse_args()`: the command line."""
    src = ast.unparse(call.func)
    if "make_arg_parser" in src and call.args and isinstance(call.args[0], ast.List) and not call.args[0].elts:
        return "vllm-defaults"
    return "command-line"
