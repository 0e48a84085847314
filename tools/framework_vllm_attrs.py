"""The attributes a framework's adapter reads on the vLLM engine objects it holds, and the vLLM releases
whose classes have them — the attribute half of tools/framework_vllm_uses.py.

Framework side: a name bound from one of vLLM's engine constructors — `LLM(…)` / `vllm.LLM(…)`,
`LLMEngine.from_engine_args(…)`, `AsyncLLMEngine.from_engine_args(…)` (or the class called), `AsyncLLM.from_…(…)`
— as a local of the function or as `self.X` anywhere in the class, when the module imports that name
from vLLM. Read are its first attribute (`llm.sleep`) and, for LLM, the engine's (`llm.llm_engine.X`);
deeper hops (`model_executor.driver_worker…`) are not judged: the executor's class depends on the launch.
A use counts only where nothing guards it in its function (the `_gated` rules of framework_vllm_uses:
no try, no `if` but a vLLM version test; not inside a conditional expression or `and`/`or`), and only in
the functions each run calls (framework_vllm_uses.SEEDS and what they call unconditionally).

vLLM side, per release: a class's attributes are the names its body binds (methods, properties, class
variables, both branches of an `if`/`try`), every `self.X = …` in any of its methods, and those of its
bases, found by name in the module or through its `from vllm… import`; a class with `__getattr__`, or a
base not found (other than ABC, object, Generic, Protocol), takes any name: not judged.

Engines: LLMEngine and AsyncLLMEngine are vLLM's V0 classes until V1 replaces them — V1's LLMEngine and
AsyncLLM where VLLM_USE_V1 selects it (0.6.5 on for LLM's engine, 0.6.6 on for AsyncLLMEngine, the
default from 0.8.0), the only ones from 0.11.0 (the V0 classes are gone). `vllm` lists where the name is
there under V1 (under V0 where there is no V1), `v0` where it is there under V0 while both exist.
"""
from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

# binding → ((V0 file, class), (V1 file, class), files whose text names V1 where it may be chosen)
ENGINES = {
    "LLMEngine": (("vllm/engine/llm_engine.py", "LLMEngine"), ("vllm/v1/engine/llm_engine.py", "LLMEngine"),
                  ("vllm/entrypoints/llm.py", "vllm/engine/llm_engine.py")),
    "AsyncLLMEngine": (("vllm/engine/async_llm_engine.py", "AsyncLLMEngine"), ("vllm/v1/engine/async_llm.py", "AsyncLLM"),
                       ("vllm/engine/async_llm_engine.py",)),
    "AsyncLLM": (None, ("vllm/v1/engine/async_llm.py", "AsyncLLM"), ()),
    "LLM": (None, ("vllm/entrypoints/llm.py", "LLM"), ()),
}
CTORS = set(ENGINES)
PLAIN_BASES = {"ABC", "object", "Generic", "Protocol"}


# ---- vLLM's side -------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _tree(src: str, path: str):
    f = Path(src) / path
    if not f.is_file():
        return None
    try:
        return ast.parse(f.read_text("utf-8", "replace"))
    except SyntaxError:
        return None


def _body_names(body, out: set[str]) -> None:
    for s in body:
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(s.name)
        elif isinstance(s, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            for t in s.targets if isinstance(s, ast.Assign) else [s.target]:
                out.update(n.id for n in ast.walk(t) if isinstance(n, ast.Name))
        elif isinstance(s, ast.If):
            _body_names(s.body, out)
            _body_names(s.orelse, out)
        elif isinstance(s, ast.Try):
            for b in (s.body, s.orelse, s.finalbody, *[h.body for h in s.handlers]):
                _body_names(b, out)


@lru_cache(maxsize=None)
def class_attrs(src: str, path: str, name: str, depth: int = 0) -> frozenset[str] | None:
    """The attributes of class `name` of vLLM module `path` in this release; None where not judged
    (absent, open to any name, a base not found)."""
    tree = _tree(src, path)
    cls = next((n for n in (tree.body if tree else []) if isinstance(n, ast.ClassDef) and n.name == name), None)
    if cls is None or depth > 6:
        return None
    out: set[str] = set()
    _body_names(cls.body, out)
    for n in ast.walk(cls):
        for t in (n.targets if isinstance(n, ast.Assign) else [n.target] if isinstance(n, (ast.AnnAssign, ast.AugAssign)) else []):
            for a in ast.walk(t):
                if isinstance(a, ast.Attribute) and isinstance(a.value, ast.Name) and a.value.id == "self":
                    out.add(a.attr)
    if "__getattr__" in out:
        return None
    for b in cls.bases:
        base = b.value if isinstance(b, ast.Subscript) else b
        bname = base.id if isinstance(base, ast.Name) else base.attr if isinstance(base, ast.Attribute) else None
        if bname in PLAIN_BASES:
            continue
        where = _class_file(src, path, tree, bname) if bname else None
        got = class_attrs(src, where, bname, depth + 1) if where else None
        if got is None:
            return None
        out |= got
    return frozenset(out)


def _class_file(src: str, path: str, tree, name: str) -> str | None:
    """The vLLM file that defines the class a module names `name`."""
    if any(isinstance(n, ast.ClassDef) and n.name == name for n in tree.body):
        return path
    for s in ast.walk(tree):
        if isinstance(s, ast.ImportFrom) and (s.module or "").startswith("vllm") and not s.level:
            for a in s.names:
                if (a.asname or a.name) == name and a.name == name:
                    base = s.module.replace(".", "/")
                    for f in (base + ".py", base + "/__init__.py"):
                        if (Path(src) / f).is_file():
                            return f
    return None


def _v1_possible(src: str, markers) -> bool:
    return any("vllm.v1.engine" in (Path(src) / m).read_text("utf-8", "replace") for m in markers if (Path(src) / m).is_file())


def present(src: str, binding: str, hops: tuple[str, ...]) -> tuple[bool | None, bool | None]:
    """(under V1 — or the only engine —, under V0 while both exist): whether the hops resolve on the
    bound object in this release; None where not judged or (V0) where only one engine exists."""
    v0, v1, markers = ENGINES[binding]
    if binding == "LLM":
        attrs = class_attrs(src, *v1)
        if attrs is None:
            return None, None
        if hops[0] not in attrs:
            return False, None
        if len(hops) == 1 or hops[0] != "llm_engine":
            return True, None
        return present(src, "LLMEngine", hops[1:2])
    a0 = class_attrs(src, *v0) if v0 else None
    has_v1 = (Path(src) / v1[0]).is_file() and (a0 is None or _v1_possible(src, markers))
    a1 = class_attrs(src, *v1) if has_v1 else None
    if has_v1 and a0 is not None:  # both engines: V1 where it is chosen, V0 otherwise
        return (None if a1 is None else hops[0] in a1), hops[0] in a0
    only = a1 if has_v1 else a0
    return (None if only is None else hops[0] in only), None


# ---- the framework's side -------------------------------------------------------------------------

def _ctor(value, names: set[str]) -> str | None:
    """The engine a call builds, when the module imported that class from vLLM (or calls vllm.X)."""
    if not isinstance(value, ast.Call):
        return None
    f = value.func
    if isinstance(f, ast.Attribute) and f.attr in ("from_engine_args", "from_vllm_config"):
        f = f.value
    if isinstance(f, ast.Name) and f.id in names:
        return f.id
    if isinstance(f, ast.Attribute) and f.attr in CTORS and isinstance(f.value, ast.Name) and f.value.id == "vllm":
        return f.attr
    return None


def _chain(node) -> list[str] | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return [node.id] + parts[::-1] if isinstance(node, ast.Name) else None


def imported_engines(tree) -> set[str]:
    return {a.asname or a.name for s in ast.walk(tree) if isinstance(s, ast.ImportFrom) and (s.module or "").split(".")[0] == "vllm"
            for a in s.names if a.name in CTORS and (a.asname or a.name) == a.name}


def self_bindings(cls: ast.ClassDef, names: set[str]) -> dict[str, str]:
    """`self.X` → engine, for X bound from an engine constructor in the class and to nothing else
    but None (an attribute that may hold another object is not read as the engine)."""
    out: dict[str, str] = {}
    other: set[str] = set()
    for n in ast.walk(cls):
        if isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value is not None:
            eng = _ctor(n.value, names)
            for t in n.targets if isinstance(n, ast.Assign) else [n.target]:
                c = _chain(t)
                if c and len(c) == 2 and c[0] == "self":
                    if eng and out.get(c[1], eng) == eng:
                        out[c[1]] = eng
                    elif not (isinstance(n.value, ast.Constant) and n.value.value is None):
                        other.add(c[1])
    return {k: v for k, v in out.items() if k not in other}


def attr_uses(fn, stmts, bound_self: dict[str, str], names: set[str]):
    """(line, engine, hops) of each attribute read on an engine object in the unguarded statements of `fn`."""
    local = {}
    for n in ast.walk(fn):
        if isinstance(n, ast.Assign) and (eng := _ctor(n.value, names)):
            local.update({t.id: eng for t in n.targets if isinstance(t, ast.Name)})
    for s in stmts:
        for n in _unconditional(s):
            if not isinstance(n, ast.Attribute) or isinstance(n.ctx, ast.Store):
                continue
            c = _chain(n)
            if not c:
                continue
            if c[0] == "self" and len(c) >= 3 and c[1] in bound_self:
                eng, hops = bound_self[c[1]], c[2:]
            elif c[0] in local and len(c) >= 2:
                eng, hops = local[c[0]], c[1:]
            else:
                continue
            yield n.lineno, eng, tuple(hops[:2] if eng == "LLM" and hops[0] == "llm_engine" else hops[:1])


def _unconditional(stmt):
    """The nodes of a statement outside conditional expressions, `and`/`or` operands after the first,
    lambdas and nested functions (a compound statement's own body is walked by its caller)."""
    todo = [stmt] if not isinstance(stmt, (ast.If, ast.Try, ast.With, ast.AsyncWith, ast.For, ast.AsyncFor, ast.While)) else \
        [getattr(stmt, "iter", None) or getattr(stmt, "test", None)] + [i.context_expr for i in getattr(stmt, "items", [])]
    while todo:
        n = todo.pop()
        if n is None or isinstance(n, (ast.IfExp, ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        yield n
        # of `a and b`, only `a` always runs
        todo += [n.values[0]] if isinstance(n, ast.BoolOp) else list(ast.iter_child_nodes(n))
