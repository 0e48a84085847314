"""What the callers of a function pass for one of its parameters, read from the same module: the
model a wrapper class hands to `LLM(model=model_name)` is the argument its instantiation gives
(`Generator("Qwen/Qwen2.5-7B-Instruct", tp=8)`), not the parameter's default.

Only calls the module itself makes are seen, so a function is followed only where every way it
can be called is one of them: a module-level function or a module-level class's `__init__` (or
a method called through `self.`) whose name is used nowhere except as the callee of a call, no
call passing `*args`/`**kwargs` that might bind the parameter, no subclass. Anything else: None
(the caller is unknown, the parameter's default or "unknown" stands, as before)."""
from __future__ import annotations

import ast
import weakref
from collections import deque
from dataclasses import dataclass

from vllm_kb.engine.scan import name_search, python_links as links_mod
from vllm_kb.engine.scan.python_scope import Scope, assignments, function_scope, is_main_guard

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


@dataclass
class Passed:
    """One call's argument for the parameter; `node` None: the call leaves it to the default."""
    call: ast.Call
    node: ast.AST | None
    fns: tuple  # the functions that hold the call, outermost first
    cls: ast.ClassDef | None
    where: tuple | None = None  # (file, Links, module Scope, tree) of another project module that makes the call
    block: list | None = None  # the module's `if __name__ == "__main__":` body that holds a module-level call


class _Index:
    """One walk of a module, kept for its every caller lookup (a site reads several parameters and
    each lookup walked the whole module again): each node's parent, the `Name` and `Attribute`
    nodes by name in walk order, how many functions have each name, and the lookups made."""

    def __init__(self, tree: ast.Module):
        self.tree = tree
        self.parents: dict[int, ast.AST] = {}
        self.names: dict[str, list[ast.Name]] = {}
        self.attrs: dict[str, list[ast.Attribute]] = {}
        self.defs: dict[str, int] = {}
        self.passed: dict[tuple, tuple] = {}  # (fn, parameter, module) → (its context, the answer)
        parents, names, attrs, defs = self.parents, self.names, self.attrs, self.defs
        # ast.walk's order (breadth first), each node's children listed once (not by the walk
        # and again for the parent map)
        todo: deque[ast.AST] = deque([tree])
        while todo:
            node = todo.popleft()
            if type(node) is ast.Name:
                names.setdefault(node.id, []).append(node)
            elif type(node) is ast.Attribute:
                attrs.setdefault(node.attr, []).append(node)
            elif isinstance(node, _DEFS):
                defs[node.name] = defs.get(node.name, 0) + 1
            for field in node._fields:  # ast.iter_child_nodes, inline
                value = getattr(node, field, None)
                if isinstance(value, ast.AST):
                    parents[id(value)] = node
                    todo.append(value)
                elif isinstance(value, list):
                    for child in value:
                        if isinstance(child, ast.AST):
                            parents[id(child)] = node
                            todo.append(child)


_INDEX: dict[int, _Index] = {}  # id(tree) → its index, the most recently used last
_KEEP = 8  # modules indexed at once (a parent map is about the module's size again); vLLM's tree builds no index twice with 8


def forget() -> None:
    """Drop the kept indexes (and the modules they hold) once a project's scan is over: they
    served its caller lookups, and a process that stays (the MCP server) would keep the last
    project's eight modules to the next call."""
    _INDEX.clear()


def _index(tree: ast.Module) -> _Index:
    got = _INDEX.pop(id(tree), None)
    if got is None or got.tree is not tree:
        got = _Index(tree)
        while len(_INDEX) >= _KEEP:
            del _INDEX[next(iter(_INDEX))]
    _INDEX[id(tree)] = got
    return got


def _parents(tree: ast.Module) -> dict[int, ast.AST]:
    return _index(tree).parents


def _holders(node: ast.AST, parents: dict[int, ast.AST]) -> tuple[tuple, ast.ClassDef | None, list | None]:
    fns: list = []
    cls = None  # the innermost class: what `self.` names in the call's arguments
    block = None  # a script's `args = parser.parse_args()` sits in its main guard beside the call
    p = parents.get(id(node))
    while p is not None:
        if isinstance(p, _DEFS):
            fns.append(p)
        elif isinstance(p, ast.ClassDef) and cls is None:
            cls = p
        elif isinstance(p, ast.If) and is_main_guard(p) and isinstance(parents.get(id(p)), ast.Module):
            block = p.body
        p = parents.get(id(p))
    return tuple(reversed(fns)), cls, None if fns else block


def _callee(fn: ast.FunctionDef | ast.AsyncFunctionDef, parents: dict[int, ast.AST]) -> tuple[str, str, int] | None:
    """(how it is called: "name" or "attr", the name, how many leading parameters the call does
    not give) for a function the module's own calls can be read for."""
    owner = parents.get(id(fn))
    if isinstance(owner, ast.Module):
        return "name", fn.name, 0
    if not isinstance(owner, ast.ClassDef) or not isinstance(parents.get(id(owner)), ast.Module):
        return None
    decos = {d.id for d in fn.decorator_list if isinstance(d, ast.Name)}
    if decos - {"staticmethod", "classmethod"} or any(not isinstance(d, ast.Name) for d in fn.decorator_list):
        return None
    skip = 0 if "staticmethod" in decos else 1
    if fn.name == "__init__":
        return "name", owner.name, skip
    if fn.name.startswith("__"):
        return None
    return "attr", fn.name, skip


def _bound(call: ast.Call, fn: ast.FunctionDef | ast.AsyncFunctionDef, name: str, skip: int) -> tuple[bool, ast.AST | None]:
    """(readable, the argument node or None for the default)."""
    for kw in call.keywords:
        if kw.arg == name:
            return True, kw.value
    a = fn.args
    pos = [x.arg for x in a.posonlyargs + a.args][skip:]
    if name in pos:
        i = pos.index(name)
        for j, arg in enumerate(call.args):
            if isinstance(arg, ast.Starred):
                return False, None
            if j == i:
                return True, arg
    if any(kw.arg is None for kw in call.keywords) or any(isinstance(x, ast.Starred) for x in call.args):
        return False, None
    return True, None


def passed(tree: ast.Module | None, fn: ast.AST | None, name: str, links=None) -> list[Passed] | None:
    """Every call to `fn` with what it passes for parameter `name` — in `tree`, and (given the
    module's `links`) in the project's other modules that import it by name; None when the function
    may be called in ways the modules do not show; [] when none calls it. The same question asked
    again (a site's other settings read the same parameter) gets the first answer: everything it
    depends on is cached per audit already."""
    if tree is None or not isinstance(fn, _DEFS):
        return None
    index = _index(tree)
    ctx = getattr(links, "ctx", None)
    key = (id(fn), name, links is None, getattr(links, "rel", None), id(ctx))
    held = index.passed.get(key)
    if held is None or held[0]() is not ctx:  # an audit's context, not a later one at the same address
        held = index.passed[key] = (_ref(ctx), _passed(index, fn, name, links))
    return None if held[1] is None else list(held[1])


def _ref(obj):
    try:
        return weakref.ref(obj)
    except TypeError:  # None, or a stand-in without weak references: held as it is
        return lambda: obj


def _passed(index: _Index, fn, name: str, links) -> list[Passed] | None:
    how = _callee(fn, index.parents)
    if how is None:
        return None
    kind, callee, skip = how
    if kind == "attr" and index.defs.get(callee, 0) != 1:
        return None  # another function of that name: `x.name(...)` may be either
    out = _scan(index, kind, callee, fn, name, skip)
    if out is None or kind != "name" or links is None or getattr(links, "ctx", None) is None:
        return out
    importers = _importers(links, callee)
    if len(importers) > MAX_IMPORTERS:
        return None  # a library function many modules use (vLLM's own tree): not a launch wrapper's caller
    for rel in importers:
        got = links.module(rel)
        if not got:
            continue
        other, lk, scope = got
        for local, (file, inner) in lk.names.items():
            if file != links.rel or inner != callee:
                continue
            found = _scan(_index(other), "name", local, fn, name, skip)
            if found is None:
                return None
            for p in found:
                p.where = (rel, lk, scope, other)
            out += found
    return out


# Callers looked for in at most this many other modules: each is parsed and walked, and a large tree
# (vLLM's own, 570 importing modules) took 4× the audit's time and 3 GiB with no bound
MAX_IMPORTERS = 8


def _importers(links, callee: str) -> list[str]:
    """The project's other Python files whose text names `callee` and imports something (a cheap
    filter, kept per project: most functions are never looked for)."""
    cache = links.ctx.__dict__.setdefault("_py_callers", {})
    key = (links.rel, callee)
    if key not in cache:
        # past the bound the list is not used: one more file than it says
        found = name_search.files_naming(links.ctx, callee, links.rel, MAX_IMPORTERS + 1)
        # a test module's call injects a double (`Driver(binary="/bin/sh")`, vllm-warden's
        # tests/unit/runtime/engine, eval75): not how the project runs the function (a test helper's
        # callers are the tests)
        full = len(found) > MAX_IMPORTERS  # cut at the bound: the list stays over it, whatever it holds
        cache[key] = found if full or is_test_module(links.rel) else [rel for rel in found if not is_test_module(rel)]
    return cache[key]


def is_test_module(rel: str) -> bool:
    """A pytest/unittest module: under a `tests`/`test` folder, or named `test_*.py`, `*_test.py`, `conftest.py`."""
    parts = rel.split("/")
    name = parts[-1]
    return any(p in ("tests", "test") for p in parts[:-1]) or name.startswith("test_") or name.endswith("_test.py") \
        or name == "conftest.py"


def _scan(index: _Index, kind: str, callee: str, fn, name: str, skip: int) -> list[Passed] | None:
    parents = index.parents
    out: list[Passed] = []
    for node in (index.names if kind == "name" else index.attrs).get(callee, ()):
        call = parents.get(id(node))
        ray = _ray_call(node, parents) if kind == "name" else None
        if ray is not None:
            call = ray
        elif not (isinstance(call, ast.Call) and call.func is node):
            return None  # passed on, subclassed, stored: called where the module does not show
        ok, arg = _bound(call, fn, name, skip)
        if not ok:
            return None
        fns, cls, block = _holders(call, parents)
        if fn in fns:
            return None  # a recursive call passes its own parameter on
        out.append(Passed(call, arg, fns, cls, block=block))
    return out


def _ray_call(node: ast.AST, parents: dict[int, ast.AST]) -> ast.Call | None:
    """`Cls.bind(…)` / `Cls.remote(…)`, through `.options(…)` too: Ray Serve's and Ray's way of calling
    a deployment's or an actor's `__init__` (a remote function's body) with those arguments."""
    attr = parents.get(id(node))
    if isinstance(attr, ast.Attribute) and attr.attr == "options":
        opts = parents.get(id(attr))
        if not (isinstance(opts, ast.Call) and opts.func is attr):
            return None
        attr = parents.get(id(opts))
    call = parents.get(id(attr)) if isinstance(attr, ast.Attribute) and attr.attr in ("bind", "remote") else None
    return call if isinstance(call, ast.Call) and call.func is attr else None


NONE = object()  # the callers say nothing: the parameter is read as before (its default, or unknown)


def value(resolver, param, unresolved: type[Exception]):
    """The value every call of the module passes for `param` (a python_scope.ParamDefault),
    evaluated where each call stands; NONE when the callers cannot be read or there are none.
    Calls that disagree make it unknown (`unresolved` raised): which one starts the engine is a
    run-time matter."""
    calls = passed(resolver.tree, param.fn, param.name, resolver.links)
    if not calls:
        return NONE
    root = _root(resolver)
    seen: dict[str, tuple] = {}
    for p in calls:
        if p.node is None:
            if param.node is None:
                continue  # a call that does not give it would fail: not the one that runs
            v = resolver.value(param.node)
        else:
            v = resolver.elsewhere(p.node, _call_scope(p, root), p.where[1] if p.where else resolver.links, p.cls,
                                   tree=p.where[3] if p.where else None)
        seen.setdefault(repr(v), (v, f"{p.where[0]}:" if p.where else "line ", p.call.lineno))
    if not seen:
        return NONE
    if len(seen) > 1:
        lines = ", ".join(f"{w}{n}" for _, w, n in seen.values())
        raise unresolved(param, f"the calls at {lines} pass different values for `{param.name}`")
    v, where, line = next(iter(seen.values()))
    resolver._assume(f"`{param.name}` as the call at {where}{line} passes it")
    return v


def _call_scope(p: Passed, root: Scope) -> Scope:
    """The names where a call stands: its module's (another module's, for a call made there), the
    main guard's block that holds it, then the functions around it."""
    scope = p.where[2] if p.where else root
    if p.block is not None:
        scope = Scope.of(p.block, scope)
    for fn in p.fns:
        scope = function_scope(fn, scope)
    return scope


def _root(resolver):
    root = resolver.scope
    while root.parent is not None:
        root = root.parent
    return root


def self_attr(resolver, attr: str):
    """`self.attr` of a method of `resolver.cls`, set once in `__init__` from its parameters
    (`self.model_name = model_name`): the value when every instantiation the project makes passes
    each parameter it reads, or leaves it to a default the parameter has (`LocalSubprocessDriver(
    log_dir=…)` with `binary: str = "vllm"`, vllm-warden app/main.py, eval75); NONE otherwise (a
    default alone, with no instantiation seen, does not say what runs)."""
    cls = resolver.cls
    init = next((st for st in cls.body if isinstance(st, ast.FunctionDef) and st.name == "__init__"), None)
    if init is None:
        return NONE
    stores = [n for n in ast.walk(init) if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store)
              and isinstance(n.value, ast.Name) and n.value.id == "self" and n.attr == attr]
    st = next((st for st in init.body if isinstance(st, ast.Assign) and len(st.targets) == 1
               and st.targets[0] in stores), None)
    if st is None or len(stores) != 1:
        return NONE
    names = {x.arg for x in init.args.posonlyargs + init.args.args + init.args.kwonlyargs}
    used = {n.id for n in ast.walk(st.value) if isinstance(n, ast.Name) and n.id in names}
    for name in used:
        calls = passed(resolver.tree, init, name, resolver.links)
        if not calls or any(p.node is None and not _has_default(init, name) for p in calls):
            return NONE
    return resolver.elsewhere(st.value, function_scope(init, Scope(assignments(cls.body), _root(resolver))),
                              resolver.links, cls)


def _has_default(fn: ast.FunctionDef, name: str) -> bool:
    a = fn.args
    pos = a.posonlyargs + a.args
    if name in [x.arg for x in pos[len(pos) - len(a.defaults):]]:
        return True
    return any(x.arg == name and d is not None for x, d in zip(a.kwonlyargs, a.kw_defaults))


def parsed_args(resolver, param):
    """The `parser.parse_args()` call every caller of the function passes for `param` (directly
    or through a name bound to it once), so `param.X` reads the option's default as the module's
    own `args.X` does; None otherwise."""
    calls = passed(resolver.tree, param.fn, param.name, resolver.links)
    if not calls:
        return None
    found = None
    for p in calls:
        node = p.node
        if p.where:
            return None  # another module's parser: its options are not this module's
        if isinstance(node, ast.Name):
            node = _call_scope(p, _root(resolver)).lookup(node.id)
        if not links_mod.parses_args(resolver.tree, node):  # `parser.parse_args()`, or `get_args()` returning it
            return None
        found = found or node
    return found
