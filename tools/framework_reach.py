"""How a framework's vLLM adapter is walked, read with `ast`: the functions a run reaches from its seeds
(what each calls unconditionally, across the package's modules), the calls that build vLLM's engine, and
each statement's version gates. Shared by tools/framework_vllm_uses.py (imports and attributes) and
tools/framework_vllm_calls.py (calls), apart from both so that neither imports the other back."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vllm_kb.engine.check.framework_kwargs import gate_holds  # noqa: E402
from vllm_kb.engine.scan.framework_source import AVAILABLE  # noqa: E402


# the calls that build vLLM's engine: an import above one of them in the same function runs before any
# engine exists, so a miss there refuses the launch
BUILDERS = {"LLM", "from_engine_args", "from_vllm_config", "AsyncLLMEngine", "LLMEngine", "AsyncLLM"}


def _builds_engine(fn) -> list[int]:
    """Lines of the calls in `fn`'s own body (nested defs aside) that build vLLM's engine."""
    out = []
    for n in _own_nodes(fn):
        if isinstance(n, ast.Call):
            f = n.func
            if (f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None) in BUILDERS:
                out.append(n.lineno)
    return out


def _calls(fn, cls: str | None):
    """Names of what `fn` calls unconditionally: `self.m(…)` as `Class.m`, `f(…)` as `f`."""
    todo = list(fn.body)
    while todo:
        n = todo.pop()
        if isinstance(n, (ast.If, ast.IfExp, ast.BoolOp, ast.ExceptHandler, ast.Match,
                          ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            if isinstance(n, ast.If):
                todo.append(n.test)  # the test itself always runs
            continue
        if isinstance(n, ast.Try):
            todo += n.body + n.finalbody
            continue
        if isinstance(n, ast.Call):
            f = n.func
            if isinstance(f, ast.Name):
                yield f.id
            elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "self" and cls:
                yield f"{cls}.{f.attr}"
        todo += list(ast.iter_child_nodes(n))


class _Defs(dict):
    """(file, function) → its node, for any module of the package, read on first use."""

    def __init__(self, trees):
        super().__init__()
        self.trees, self.read = trees, set()

    def __contains__(self, key) -> bool:
        path = key[0]
        if path not in self.read and path in self.trees:
            self.read.add(path)
            self.update({(path, q): fn for q, fn in functions(self.trees[path])})
        return dict.__contains__(self, key)


def reached(trees, seeds: dict[str, dict[str, str]]) -> dict[tuple[str, str], tuple[str, ast.AST]]:
    """(file, function) → (when, node), for the seeds and the package functions they call unconditionally."""
    defs = _Defs(trees)
    out: dict[tuple[str, str], tuple[str, ast.AST]] = {}
    todo = [((path, qual), when) for path, fns in seeds.items() for qual, when in fns.items() if (path, qual) in defs]
    while todo:
        key, when = todo.pop()
        if key in out and out[key][0] in (when, "launch"):
            continue
        out[key] = (when, defs[key])
        path, qual = key
        cls = qual.rsplit(".", 1)[0] if "." in qual else None
        for name in _calls(defs[key], cls):
            for cand in ((path, f"{qual}.{name}"), (path, name), *_imported(trees, path, name)):
                if cand in defs:
                    todo.append((cand, when))
                    break
    return out


def _imported(trees, path: str, name: str):
    """(file, name) of a function a module imports by name from another module of its package."""
    for s in trees[path].body:
        if isinstance(s, ast.ImportFrom) and s.module and not s.level:
            for a in s.names:
                if (a.asname or a.name) == name:
                    base = s.module.replace(".", "/")
                    for f in (base + ".py", base + "/__init__.py"):
                        if f in trees:
                            yield f, a.name


def _own_nodes(fn):
    """The nodes of a function's body, not descending into nested functions or classes."""
    todo = list(fn.body)
    while todo:
        n = todo.pop()
        yield n
        for c in ast.iter_child_nodes(n):
            if not isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                todo.append(c)


def _version_test(test) -> str | None:
    """The test less its `vLLM is installed` operands (Xinference's `VLLM_INSTALLED and vllm.__version__
    >= "0.6.3"`): "" when nothing else is left, None when it asks that vLLM be missing (never true here)."""
    parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
    rest = []
    for p in parts:
        text = ast.unparse(p)
        if AVAILABLE.search(text) or text == "VLLM_INSTALLED":
            if isinstance(p, ast.UnaryOp) and isinstance(p.op, ast.Not):
                return None
            continue
        rest.append(text)
    return " and ".join(f"({t})" for t in rest) if len(rest) > 1 else "".join(rest)


def _gated(body, gates=()):
    """(statement, gates) of each statement in a function body that no try and no other test guards
    (a with/for/while yields its header, then its body); `gates`: the (version test, branch taken) pairs
    around it."""
    for s in body:
        if isinstance(s, ast.If):
            test = _version_test(s.test)
            if test is None:  # `if not is_vllm_available():` never runs where vLLM is
                yield from _gated(s.orelse, gates)
                continue
            if not test:  # `if is_vllm_available():` / `if VLLM_INSTALLED:` holds wherever vLLM is
                yield from _gated(s.body, gates)
                continue
            if gate_holds(test, "0.10.0") is None:  # not a test of the vLLM version alone
                continue
            yield from _gated(s.body, gates + ((test, True),))
            yield from _gated(s.orelse, gates + ((test, False),))
        elif isinstance(s, (ast.With, ast.AsyncWith, ast.For, ast.AsyncFor, ast.While)):
            yield s, gates
            yield from _gated(s.body, gates)
        elif not isinstance(s, (ast.Try, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield s, gates
        # try: the framework falls back; nested defs are read as functions of their own


def functions(tree: ast.Module):
    """(qualified name, node) of every function and method in a module, nested ones too."""
    todo = [("", n) for n in tree.body]
    while todo:
        prefix, n = todo.pop(0)
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield prefix + n.name, n
            todo += [(f"{prefix}{n.name}.", c) for c in ast.walk(n) if c is not n
                     and isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef)) and _parent_def(n, c)]
        elif isinstance(n, ast.ClassDef):
            todo += [(f"{prefix}{n.name}.", c) for c in n.body]
        elif isinstance(n, (ast.If, ast.Try)):
            todo += [(prefix, c) for c in ast.iter_child_nodes(n) if isinstance(c, ast.stmt)]


def _parent_def(outer, inner) -> bool:
    """Whether `inner` is defined directly in `outer` (no def between them)."""
    return any(inner is c for c in _own_nodes(outer))
