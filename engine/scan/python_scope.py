"""Names of a Python block as the static readers see them: the names a block binds once, a
function's parameters and their defaults, a walk that does not enter nested functions, the
blocks that hold a node, and the shapes of `os.environ` reads."""
from __future__ import annotations

import ast
import itertools
from collections import Counter
from dataclasses import dataclass, field
from typing import Any


class Unresolved(Exception):
    """A value the static reading cannot know; `why` says what it would take (run time, a file)."""

    def __init__(self, node: ast.AST, why: str = ""):
        self.node = node
        self.why = why


@dataclass
class ParamDefault:
    """A function parameter read through its default (the caller may pass another value);
    `node` None: a parameter without a default."""
    node: ast.AST | None
    name: str
    lineno: int = 0
    col_offset: int = 0
    fn: Any = None  # the function it belongs to: its callers may say what it is (python_callers.py)


@dataclass
class Scope:
    names: dict[str, Any] = field(default_factory=dict)  # name → ast node, or ParamDefault
    parent: "Scope | None" = None
    body: list | None = None  # a block whose names are read only when first looked up (`of`)

    @classmethod
    def of(cls, body: list[ast.stmt], parent: "Scope | None" = None, names: dict | None = None) -> "Scope":
        """The scope of a block, its assignments collected on the first lookup: most functions of a
        large file hold no site, and walking each of them for its names was a third of the scan."""
        return cls(names=dict(names or {}), parent=parent, body=body)

    def lookup(self, name: str):
        s: Scope | None = self
        while s is not None:
            if s.body is not None:
                s.names, s.body = {**s.names, **assignments(s.body)}, None
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None


# Fields that hold only leaves no scanner looks at (Load/Store, operators): not walked.
_LEAF_FIELDS = frozenset({"ctx", "op", "ops", "type_ignores"})
_STATEMENT_FIELDS = frozenset({"body", "orelse", "finalbody", "handlers", "cases"})
_FIELDS: dict[type, tuple[str, ...]] = {}
_STMT_FIELDS: dict[type, tuple[str, ...]] = {}
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _fields(cls: type[ast.AST]) -> tuple[str, ...]:
    f = _FIELDS.get(cls)
    if f is None:
        f = _FIELDS[cls] = tuple(n for n in cls._fields if n not in _LEAF_FIELDS)
    return f


def children(node: ast.AST) -> list[ast.AST]:
    """The child nodes a scanner may look at (context and operator leaves left out)."""
    out = []  # _children's loop, not a call of it: the scanners ask this of every node they walk
    for name in _FIELDS.get(type(node)) or _fields(type(node)):
        v = getattr(node, name, None)
        if type(v) is list:
            out += [x for x in v if isinstance(x, ast.AST)]
        elif isinstance(v, ast.AST):
            out.append(v)
    return out


def _children(node: ast.AST, fields: tuple[str, ...]) -> list[ast.AST]:
    out = []
    for name in fields:
        v = getattr(node, name, None)
        if type(v) is list:
            out += [x for x in v if isinstance(x, ast.AST)]
        elif isinstance(v, ast.AST):
            out.append(v)
    return out


def walk(tree: ast.AST):
    """ast.walk (the same order, breadth first) without the generic field iteration, which is
    most of the scan's time on a large tree; context and operator leaves are left out. A whole
    module's nodes are listed once and kept on it: a file's sites walk it a dozen times (its
    imports, os.environ, CUDA order, sleep, dotenv, the trainer…), and nothing changes a parsed tree.
    The module itself is left out of its list: a list on the module that held the module would be
    a cycle, which the one-shot commands (no cycle collector) never free — 120 of vLLM's parsed
    modules stayed to the end that way."""
    if type(tree) is ast.Module:
        got = tree.__dict__.get("_walked")
        if got is None:
            nodes = _walk(tree)
            next(nodes)  # the module
            got = tree.__dict__["_walked"] = list(nodes)
        return itertools.chain((tree,), got)
    return _walk(tree)


def walk_changing(tree: ast.AST):
    """walk for a reader that changes the tree as it goes (lazy_config.rewrite): each node's children
    are listed when the walk moves past it, as ast.walk does, and no list is kept on the module."""
    return _walk(tree)


def _walk(tree: ast.AST):
    # _children inlined: a call per node was a fifth of the walk (vLLM's tree: 1.2 million nodes walked)
    from collections import deque

    todo = deque([tree])
    pop, extend, append, known, AST = todo.popleft, todo.extend, todo.append, _FIELDS.get, ast.AST
    while todo:
        n = pop()
        yield n
        for name in known(type(n)) or _fields(type(n)):
            v = getattr(n, name, None)
            if type(v) is list:
                extend([x for x in v if isinstance(x, AST)])
            elif isinstance(v, AST):
                append(v)


def statements(tree: ast.AST):
    """The statements of a module in ast.walk's order (expressions never hold one), with the
    except handlers and match cases between them."""
    from collections import deque

    todo = deque([tree])
    while todo:
        n = todo.popleft()
        yield n
        cls = type(n)
        f = _STMT_FIELDS.get(cls)
        if f is None:
            f = _STMT_FIELDS[cls] = tuple(x for x in cls._fields if x in _STATEMENT_FIELDS)
        if f:
            todo.extend(_children(n, f))


def walk_no_defs(node: ast.AST):
    """ast.walk that yields function definitions but does not descend into them (depth first)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, _DEFS):
            continue
        kids = _children(n, _FIELDS.get(type(n)) or _fields(type(n)))
        kids.reverse()
        stack += kids


def assignments(body: list[ast.stmt]) -> dict[str, ast.AST]:
    """Names bound exactly once in a block, by a plain `x = <expr>` at its top level."""
    values: dict[str, ast.AST] = {}
    for stmt in body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            values[stmt.targets[0].id] = known_args_call(stmt.value, 0) or stmt.value
        elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Tuple) \
                and len(stmt.targets[0].elts) == 2 and isinstance(stmt.targets[0].elts[0], ast.Name) \
                and (parsed := known_args_call(stmt.value, None)) is not None:
            values[stmt.targets[0].elts[0].id] = parsed  # `args, rest = p.parseknown_args_call()`: rest stays unknown
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
            values[stmt.target.id] = stmt.value
    counts: Counter[str] = Counter()
    for stmt in body:
        for node in walk_no_defs(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                counts[node.id] += 1
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                counts[node.name] += 1
    return {k: v for k, v in values.items() if counts[k] == 1}


def known_args_call(value, index: int | None) -> ast.Call | None:
    """`p.parseknown_args_call()` (`[0]` of it where `index` is 0) as the `p.parse_args()` whose
    namespace it returns: its options read through their defaults, as parse_args' are."""
    if index is not None:
        if not (isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Constant) and value.slice.value == index):
            return None
        value = value.value
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "parse_known_args"):
        return None
    call = ast.Call(func=ast.Attribute(value=value.func.value, attr="parse_args", ctx=ast.Load()), args=value.args, keywords=value.keywords)
    return ast.copy_location(call, value)


def params(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, ParamDefault]:
    """Every parameter of a function, with its default where it has one."""
    a = fn.args
    out: dict[str, ParamDefault] = {x.arg: ParamDefault(None, x.arg, fn=fn) for x in a.posonlyargs + a.args + a.kwonlyargs}
    for x in (a.vararg, a.kwarg):
        if x is not None:
            out[x.arg] = ParamDefault(None, x.arg)
    pos = a.posonlyargs + a.args
    for arg, default in zip(pos[len(pos) - len(a.defaults):], a.defaults):
        out[arg.arg] = ParamDefault(default, arg.arg, default.lineno, default.col_offset, fn)
    for arg, kw_default in zip(a.kwonlyargs, a.kw_defaults):
        if kw_default is not None:
            out[arg.arg] = ParamDefault(kw_default, arg.arg, kw_default.lineno, kw_default.col_offset, fn)
    return out


def function_scope(fn: ast.FunctionDef | ast.AsyncFunctionDef, parent: Scope) -> Scope:
    """A function's names: its parameters (read through their defaults, or unknown) shadow the
    enclosing scope; the names the body binds once are read on the first lookup."""
    return Scope.of(fn.body, parent, params(fn))


def chain(body: list[ast.stmt], node: ast.expr | ast.stmt) -> list[tuple[list[ast.stmt], int]]:
    """The statements that hold `node`, outermost first, as (block, index) pairs — the blocks
    a reader runs up to the node (the branch that holds it is taken)."""
    out: list[tuple[list[ast.stmt], int]] = []
    line = node.lineno
    while body:
        for i, st in enumerate(body):
            if st.lineno <= line <= (st.end_lineno or st.lineno):
                out.append((body, i))
                inner = None
                for b in _blocks(st):
                    if b and b[0].lineno <= line <= (b[-1].end_lineno or b[-1].lineno):
                        inner = b
                        break
                body = inner or []
                break
        else:
            break
        if body is None:
            break
    return out


def _blocks(st: ast.stmt) -> list[list[ast.stmt]]:
    if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return []
    out = [getattr(st, k) for k in ("body", "orelse", "finalbody") if isinstance(getattr(st, k, None), list)]
    for h in getattr(st, "handlers", []) or []:
        out.append(h.body)
    for c in getattr(st, "cases", []) or []:
        out.append(c.body)
    return out


def dotted(node) -> str:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return ""


def module_attr(f, modules: set[str]) -> str | None:
    """`mod.X` / `mod.sub.X` where `mod` is one of `modules` (names bound to a module): X."""
    if not isinstance(f, ast.Attribute):
        return None
    root = f.value
    while isinstance(root, ast.Attribute):
        root = root.value
    return f.attr if isinstance(root, ast.Name) and root.id in modules else None


def env_read(node):
    """`os.environ.get("X"[, d])` / `os.getenv("X"[, d])`: (name node, default node or None)."""
    if not (isinstance(node, ast.Call) and 1 <= len(node.args) <= 2):
        return None
    f = node.func
    if isinstance(f, ast.Attribute) and ((f.attr == "get" and is_environ(f.value)) or
                                         (f.attr == "getenv" and isinstance(f.value, ast.Name) and f.value.id == "os")):
        default = node.args[1] if len(node.args) == 2 else next((k.value for k in node.keywords if k.arg == "default"), None)
        return node.args[0], default
    if isinstance(f, ast.Name) and f.id == "getenv":
        return node.args[0], node.args[1] if len(node.args) == 2 else None
    return None


def is_environ(node) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "environ" and isinstance(node.value, ast.Name) and node.value.id == "os"


def imports_submodule(node: ast.AST, module: str, package: str = "") -> bool:
    """Whether `node` (a package's `__init__.py`, or a statement of it) imports the package's own
    module `module` at any depth (the releases that pick a module by the installed vLLM import it
    under an `if`): `from .module import …`, or, where the package's dotted name is given,
    `from package.module import …`."""
    full = f"{package}.{module}" if package else None
    for n in ast.walk(node):
        if isinstance(n, ast.ImportFrom) and ((n.level == 1 and n.module == module) or (full is not None and n.module == full)):
            return True
    return False


def is_main_guard(stmt: ast.stmt) -> bool:
    """`if __name__ == "__main__":` (either operand order)."""
    if not isinstance(stmt, ast.If) or not isinstance(stmt.test, ast.Compare) or len(stmt.test.ops) != 1:
        return False
    if not isinstance(stmt.test.ops[0], ast.Eq):
        return False
    sides = [stmt.test.left, *stmt.test.comparators]
    names = [s for s in sides if isinstance(s, ast.Name) and s.id == "__name__"]
    consts = [s for s in sides if isinstance(s, ast.Constant) and s.value == "__main__"]
    return bool(names and consts)
