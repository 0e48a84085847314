"""Loops the flow follows item by item (python_flow): an argv grown flag by flag from a mapping or
list of plain values the code fixes — `for k, v in ENGINE_CONFIG.items(): cmd.extend([f"--{k.replace('_',
'-')}", str(v)])`, the way launcher scripts turn a config dict into `vllm serve` flags."""
from __future__ import annotations

import ast
import copy
from typing import Callable

from vllm_kb.engine.scan.python_scope import Unresolved


def argv_loop(flow, st: ast.stmt, uncertain: str | None, is_list: Callable[[str], bool]) -> bool:
    """`for k, v in CONFIG.items(): cmd += [f"--{k}", str(v)]` (or `for flag in FLAGS:
    cmd.append(flag)`) over a mapping or list of plain values the code fixes, whose body only
    grows argv lists: followed once per item with the loop names replaced by the item. An argv
    list's words are never edited in place (python_argv), so the copies carry no edit risk."""
    if not isinstance(st, ast.For) or st.orelse or not _grows_lists_only(st.body, is_list):
        return False
    t, it = st.target, st.iter
    names = [t.id] if isinstance(t, ast.Name) else [x.id for x in t.elts if isinstance(x, ast.Name)] \
        if isinstance(t, ast.Tuple) and len(t.elts) == 2 else []
    source = it.func.value if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr == "items" \
        and not it.args else None
    pairs = source is not None
    if len(names) != (2 if pairs else 1):
        return False
    try:
        got = flow.r.value(source if source is not None else it)
    except (Unresolved, RecursionError):
        return False
    rows = list(got.items()) if pairs and isinstance(got, dict) else \
        [(x,) for x in got] if not pairs and isinstance(got, (list, tuple)) else None
    plain = (str, int, float, bool, type(None))
    if rows is None or len(rows) > 64 or not all(isinstance(x, plain) for row in rows for x in row):
        return False
    for row in rows:
        bound = dict(zip(names, row))
        flow._run([_Bind(bound).visit(copy.deepcopy(x)) for x in st.body], uncertain)
    return True


def _grows_lists_only(body: list[ast.stmt], is_list: Callable[[str], bool]) -> bool:
    for x in body:
        if isinstance(x, ast.If):
            if not (_grows_lists_only(x.body, is_list) and _grows_lists_only(x.orelse, is_list)):
                return False
        elif isinstance(x, ast.AugAssign) and isinstance(x.target, ast.Name):
            if not is_list(x.target.id):
                return False
        elif isinstance(x, ast.Expr) and isinstance(x.value, ast.Call) and isinstance(x.value.func, ast.Attribute):
            f = x.value.func
            if not (f.attr in ("append", "extend") and isinstance(f.value, ast.Name) and is_list(f.value.id)):
                return False
        else:
            return False
    return True


class _Bind(ast.NodeTransformer):
    """Loop names read in a copied body replaced by one item's values."""

    def __init__(self, bound: dict):
        self.bound = bound

    def visit_Name(self, node: ast.Name):
        if isinstance(node.ctx, ast.Load) and node.id in self.bound:
            return ast.copy_location(ast.Constant(self.bound[node.id]), node)
        return node
