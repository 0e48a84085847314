"""The calls a framework's or serving wrapper's vLLM adapter makes to vLLM's own functions, checked
against each vLLM release's signature — read with `ast` (never imported) for
tools/framework_vllm_uses.py, whose rows they join (`call`).

Which calls: in the unguarded statements (framework_vllm_uses._gated: no try, no test but one of the
vLLM version) of the functions each run calls (SEEDS), a call of a name the module or the function
binds with `from vllm… import name`. The engine classes (LLM, EngineArgs, AsyncEngineArgs) are left
to engine_kwargs.yaml, which follows the dicts spread into them.

What fails: Python's own checks of a call against the definition the release has — a keyword the
definition does not name (no **kwargs): `TypeError: f() got an unexpected keyword argument 'x'`; more
positional arguments than it takes (no *args): `f() takes 3 positional arguments but 4 were given`; a
parameter without a default that the call gives neither by position nor by keyword (checked only
where the call spreads no *args/**kwargs): `missing 1 required keyword-only argument: 'x'`.

The definition: a top-level def (or a class's own __init__) of the module named in the import,
followed through `from X import name` re-exports (3 hops). A release where it cannot be read — absent
(the import's own miss is vllm_uses' `import` row), overloaded, wrapped by a decorator that may change
the signature, a class without its own __init__ — is not judged: never a miss.

A name bound only by a module-level `try: from vllm… import name / except ModuleNotFoundError: pass`
(lm-eval's vLLM backend) is left unbound in a release that lacks its module (or an import before it
in the try): a call of it is `NameError: name 'x' is not defined` there (`unbound x`).

WRAPPERS: the serving and evaluation packages that build vLLM's engine for the user
(engine/check/host_compat.py: Ray Serve LLM, lm-eval, FastChat's vllm_worker, lighteval), their entry modules, and their SEEDS — the functions a launch runs
(`launch`) and those the first request runs (`after_start`).

Refreshing the wrappers' rows (the wheels read on 2026-12-06: ray 2.44.0–2.60.0, lm-eval 0.4.1–0.4.13 (0.4.0 has no wheel),
lighteval 0.5.0–0.13.0, fschat 0.2.20–0.2.36, each `pip download NAME==X --no-deps -d DIR`):
    python tools/framework_vllm_imports.py --wheels DIR --only ray lm_eval lighteval fastchat
    python tools/framework_vllm_uses.py --wheels DIR --only ray lm_eval lighteval fastchat"""
from __future__ import annotations

import ast
import re
from functools import lru_cache
from pathlib import Path

from framework_wrappers import SEEDS, WRAPPERS  # noqa: E402,F401 — read as framework_vllm_calls.WRAPPERS too

SKIP = {"LLM", "EngineArgs", "AsyncEngineArgs"}
# decorators that keep the signature Python checks (vLLM's deprecate_kwargs warns, then calls through)
_KEEPS = re.compile(r"^(functools\.)?(lru_cache|cache|wraps)$|deprecate_kwargs|^deprecated$|^(static|class)method$|^override$")


@lru_cache(maxsize=None)
def _tree(path: str):
    try:
        return ast.parse(Path(path).read_text("utf-8", "replace"))
    except (SyntaxError, ValueError, RecursionError):
        return None


def _module_file(src: str, mod: str) -> str | None:
    base = Path(src) / mod.replace(".", "/")
    for f in (base.with_suffix(".py"), base / "__init__.py"):
        if f.is_file():
            return str(f)
    return None


def _top(body):
    """The top-level statements, both branches of a top-level if/try (never a TYPE_CHECKING body)."""
    for s in body:
        if isinstance(s, ast.If):
            if "TYPE_CHECKING" not in ast.unparse(s.test):
                yield from _top(s.body)
            yield from _top(s.orelse)
        elif isinstance(s, ast.Try):
            for b in (s.body, s.orelse, s.finalbody, *[h.body for h in s.handlers]):
                yield from _top(b)
        else:
            yield s


def _plain(fn) -> bool:
    names = [ast.unparse(d.func if isinstance(d, ast.Call) else d) for d in fn.decorator_list]
    return all(_KEEPS.search(n) for n in names)


@lru_cache(maxsize=None)
def signature(src: str, mod: str, name: str, hops: int = 0):
    """The def Python checks a call of `mod.name` against in the release at `src`: its ast.arguments
    (a class: its own __init__'s, less self); None when it cannot be read there."""
    path = _module_file(src, mod)
    tree = _tree(path) if path else None
    if tree is None:
        return None
    found = []
    for s in _top(tree.body):
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and s.name == name:
            found.append(s)
        elif isinstance(s, ast.ImportFrom) and hops < 3 and any((a.asname or a.name) == name for a in s.names):
            real = next(a.name for a in s.names if (a.asname or a.name) == name)
            base = s.module or ""
            if s.level:  # relative: from the module's own package
                pkg = mod.split(".") if path.endswith("__init__.py") else mod.split(".")[:-1]
                base = ".".join(pkg[:len(pkg) - s.level + 1] + ([s.module] if s.module else []))
            if base.split(".")[0] == "vllm":
                return signature(src, base, real, hops + 1)
            return None
        elif isinstance(s, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in s.targets):
            return None  # bound otherwise (an alias, a partial): not read
    if len(found) != 1:
        return None  # absent, or overloads / several definitions
    node = found[0]
    if isinstance(node, ast.ClassDef):
        init = [s for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == "__init__"]
        if len(init) != 1 or not _plain(init[0]) or not _plain_class(node):
            return None
        a = init[0].args
        return ast.arguments(posonlyargs=a.posonlyargs, args=a.args[1:], vararg=a.vararg, kwonlyargs=a.kwonlyargs,
                             kw_defaults=a.kw_defaults, kwarg=a.kwarg, defaults=a.defaults)
    return node.args if _plain(node) else None


def _plain_class(node: ast.ClassDef) -> bool:
    """No metaclass or decorator that could build another constructor (a dataclass writes its own)."""
    return not node.decorator_list and not node.keywords


def problem(args: ast.arguments, npos: int, keywords: list[str], spread: bool) -> tuple[str, str] | None:
    """(kind, name) of the first thing Python refuses in a call of a def with these arguments:
    ("keyword", x) for an unexpected keyword, ("positional", "given>takes") for more positional
    arguments than it takes, ("missing positional" / "missing keyword-only", x) for a required parameter not given."""
    params = [*args.posonlyargs, *args.args]
    named = {p.arg for p in args.args} | {p.arg for p in args.kwonlyargs}
    if args.vararg is None and npos > len(params):
        return "positional", f"{npos}>{len(params)}"  # "takes 3 positional arguments but 4 were given"
    if args.kwarg is None:
        for kw in keywords:
            if kw not in named:
                return "keyword", kw
    if spread:
        return None
    required = params[:len(params) - len(args.defaults)]
    for i, p in enumerate(required):
        if i >= npos and p.arg not in keywords:
            return "missing positional", p.arg
    for p, d in zip(args.kwonlyargs, args.kw_defaults):
        if d is None and p.arg not in keywords:
            return "missing keyword-only", p.arg
    return None


def bound_names(tree: ast.Module, fn) -> dict[str, tuple[str, str]]:
    """Local name → (vLLM module, name) of what the module (top level, try and if bodies too) and the
    function itself bind with `from vllm… import`."""
    out: dict[str, tuple[str, str]] = {}
    for s in [*_top(tree.body), *ast.walk(fn)]:
        if isinstance(s, ast.ImportFrom) and not s.level and (s.module or "").split(".")[0] == "vllm":
            for a in s.names:
                if a.name != "*":
                    out[a.asname or a.name] = (s.module, a.name)
    return out


def calls(statements, names: dict[str, tuple[str, str]]):
    """(line, module, name, positional count, keywords, spread) of each call of a bound vLLM name in
    these statements (not inside nested defs or lambdas)."""
    todo = list(statements)
    while todo:
        n = todo.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in names and n.func.id not in SKIP:
            mod, name = names[n.func.id]
            spread = any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg is None for k in n.keywords)
            yield n.lineno, mod, name, sum(1 for a in n.args if not isinstance(a, ast.Starred)), \
                [k.arg for k in n.keywords if k.arg], spread
        todo += list(ast.iter_child_nodes(n))


_CATCH = re.compile(r"^(ImportError|ModuleNotFoundError)$")


def swallowed(tree: ast.Module) -> dict[str, tuple[list[tuple[str, str | None, str]], bool]]:
    """Local name → (the vLLM imports of its module-level `try`, in order, as (module, name, local); whether
    a handler catches ImportError) for names bound only there, where every handler catches an import
    error and binds nothing (`except ModuleNotFoundError: pass`, lm-eval's vLLM backend): where an import
    fails, it and the ones after it in the try leave their names unbound."""
    out: dict = {}
    elsewhere: set[str] = set()
    for s in tree.body:
        names = [ast.unparse(t) for h in getattr(s, "handlers", []) for t in (h.type.elts if isinstance(h.type, ast.Tuple) else [h.type])
                 if h.type is not None]
        quiet = isinstance(s, ast.Try) and s.handlers and len(names) == len(s.handlers) and all(_CATCH.match(n) for n in names) \
            and all(isinstance(x, (ast.Pass, ast.Expr)) for h in s.handlers for x in h.body)
        if not quiet:
            elsewhere |= {n.id for n in ast.walk(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
            elsewhere |= {a.asname or a.name for n in ast.walk(s) if isinstance(n, ast.ImportFrom) for a in n.names}
            continue
        imps = [(n.module, a.name, a.asname or a.name) for n in s.body if isinstance(n, ast.ImportFrom) and not n.level
                and (n.module or "").split(".")[0] == "vllm" for a in n.names]
        for entry in imps:
            out[entry[2]] = (imps, "ImportError" in names)
    return {k: v for k, v in out.items() if k not in elsewhere}


def unbound(src: str, imps: list[tuple[str, str | None, str]], local: str, catches_import_error: bool) -> bool:
    """Whether `local` is left unbound in the release at `src`: an import at or before its own fails in a
    way the handler catches (a missing module; a missing name only where ImportError is caught)."""
    from framework_vllm_imports import resolves
    for mod, name, here in imps:
        if not resolves(src, mod, name):
            return resolves(src, mod, None) is False or catches_import_error
        if here == local:
            return False
    return False


def judge(src: str, mod: str, name: str, npos: int, keywords: list[str], spread: bool) -> tuple[str, str] | None:
    """The call's problem in one release; None where it passes or cannot be read there."""
    args = signature(src, mod, name)
    return problem(args, npos, keywords, spread) if args is not None else None


def call_uses(trees, seeds, vsrc: Path, versions: list[str]) -> list[dict]:
    """The calls of vLLM functions (framework_vllm_calls) that some release refuses where they run:
    `vllm` the releases that take them, `refused` each problem ("keyword x", "missing keyword-only x") with its releases."""
    from framework_vllm_imports import _runs
    from framework_reach import _builds_engine, _gated, gate_holds, reached
    out = []
    for (path, qual), (seen, fn) in sorted(reached(trees, seeds).items()):
        names, built = bound_names(trees[path], fn), _builds_engine(fn)
        if not names:
            continue
        own = {a.asname or a.name for n in ast.walk(fn) if isinstance(n, ast.ImportFrom) for a in n.names}
        quiet = {k: v for k, v in swallowed(trees[path]).items() if k not in own}  # the function's own import wins
        for s, gates in _gated(fn.body):
            # a with/for/while comes with its body after it: only its header here
            head = s.items if isinstance(s, (ast.With, ast.AsyncWith)) else [s.iter] if isinstance(s, (ast.For, ast.AsyncFor)) \
                else [s.test] if isinstance(s, ast.While) else [s]
            for line, mod, name, npos, kws, spread in calls(head, names):
                local = next((k for k, v in names.items() if v == (mod, name) and k in quiet), None)
                got = [None if not all(gate_holds(t, v) is want for t, want in gates)
                       else ("unbound", local) if local and unbound(str(vsrc / v), *quiet[local][:1], local, quiet[local][1])
                       else judge(str(vsrc / v), mod, name, npos, kws, spread) for v in versions]
                if not any(got):
                    continue
                refused = {f"{k} {x}": _runs([g == (k, x) for g in got], versions) for k, x in dict.fromkeys(g for g in got if g)}
                out.append({"call": f"{mod}.{name}", "file": path, "line": line, "function": qual,
                            "when": "launch" if seen == "launch" or any(b > line for b in built) else seen,
                            "vllm": _runs([g is None for g in got], versions), "refused": refused})
    return out
