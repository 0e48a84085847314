"""What a compiled CEL predicate reads, from its parse tree: the fact paths and functions it
names (so `kb validate` can reject unknown ones and a missing fact makes a verdict "unknown"),
and a top-level `a && b && c` split into its parts (so "unknown" can name the part missing)."""
from __future__ import annotations

MACROS = frozenset({"all", "exists", "exists_one", "map", "filter"})


def conjuncts(tree) -> list | None:
    """`a && b && c` (nothing else at the top) as three expressions of their own, else None."""
    from lark import Tree

    if not (isinstance(tree, Tree) and tree.data == "expr" and len(tree.children) == 1):
        return None
    orn = tree.children[0]
    if not (isinstance(orn, Tree) and orn.data == "conditionalor" and len(orn.children) == 1):
        return None
    node = orn.children[0]
    if not (isinstance(node, Tree) and node.data == "conditionaland" and len(node.children) == 2):
        return None
    parts = []
    while isinstance(node, Tree) and node.data == "conditionaland" and len(node.children) == 2:
        parts.append(node.children[1])
        node = node.children[0]
    if not (isinstance(node, Tree) and node.data == "conditionaland" and len(node.children) == 1):
        return None
    parts.append(node.children[0])
    return [Tree("expr", [Tree("conditionalor", [Tree("conditionaland", [p])])]) for p in reversed(parts)]


def collect(node, bound: frozenset[str], paths: set, funcs: set) -> None:
    from lark import Tree, Token

    if not isinstance(node, Tree):
        return
    kind = node.data
    if kind == "member_dot":
        chain = _chain(node)
        if chain is not None:
            if chain[0] not in bound:
                paths.add(tuple(chain))
            return
    if kind == "member_dot_arg":
        target, method, *rest = node.children
        method_name = str(method)
        args = rest[0].children if rest and isinstance(rest[0], Tree) else []
        if method_name in MACROS and args:
            var = _ident(args[0])
            collect(target, bound, paths, funcs)
            inner = bound | {var} if var else bound
            for a in args[1:]:
                collect(a, inner, paths, funcs)
            return
        funcs.add(method_name)
        collect(target, bound, paths, funcs)
        for a in args:
            collect(a, bound, paths, funcs)
        return
    if kind == "ident_arg":
        name, *rest = node.children
        funcs.add(str(name))
        for child in rest:
            collect(child, bound, paths, funcs)
        return
    if kind == "ident":
        name = str(node.children[0])
        if name not in bound and name not in ("true", "false", "null"):
            paths.add((name,))
        return
    for child in node.children:
        if isinstance(child, Tree):
            collect(child, bound, paths, funcs)
        elif isinstance(child, Token):
            continue


def _chain(node) -> list[str] | None:
    """`a.b.c` as ['a','b','c'] when it is a plain dotted path from an identifier."""
    from lark import Tree

    parts: list[str] = []
    cur = node
    while True:
        if isinstance(cur, Tree) and cur.data == "member":
            cur = cur.children[0]
            continue
        if isinstance(cur, Tree) and cur.data == "member_dot":
            parts.append(str(cur.children[1]))
            cur = cur.children[0]
            continue
        if isinstance(cur, Tree) and cur.data == "primary":
            cur = cur.children[0]
            continue
        if isinstance(cur, Tree) and cur.data == "ident":
            parts.append(str(cur.children[0]))
            return list(reversed(parts))
        return None


def _ident(expr) -> str | None:
    from lark import Tree

    cur = expr
    while isinstance(cur, Tree) and len(cur.children) == 1 and cur.data != "ident":
        cur = cur.children[0]
    if isinstance(cur, Tree) and cur.data == "ident":
        return str(cur.children[0])
    return None
