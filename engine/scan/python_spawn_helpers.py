"""A function of the file that runs the command it is handed: `def run_cmd(cmd): subprocess.run(cmd,
shell=True)` called as `run_cmd(f"docker run … vllm/vllm-openai:{TAG} --model {MODEL}")`, or
`def spawn(argv, log): return subprocess.Popen(argv, stdout=log)` called with a list built over a
few statements. The command exists only at the call of the helper, so that call is the site: its
argument is read in the caller's scope (python_argv, as if the spawn were written there, with the
helper's `shell=True`), and the spawn inside the helper, whose command is only a parameter, is
not a site of its own.

Only a module-level function whose body hands one of its parameters, never reassigned, as the
command of a subprocess call (subprocess.*, os.system/popen, asyncio's shell) is a helper; the
call must give that parameter by position or by name (`*args` that may hold it: not read). A
helper of another project module counts where the caller imports it by name from that module
(`from utils import run_cmd`: utils.py, or pkg/utils.py for `from pkg.utils import …`)."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

_COMMAND_FIRST = {("os", "system"), ("os", "popen"), ("asyncio", "create_subprocess_shell")}


@dataclass(frozen=True)
class Helper:
    index: int  # the command parameter's position
    name: str  # and its name
    spawn: ast.Call  # the spawn inside the helper
    kind: tuple = field(default=(), compare=False)  # (module, function) of that spawn, for a helper of another module


def find(tree: ast.Module, spawners) -> dict[str, Helper]:
    """{function name: Helper} of the file's module-level functions that run a parameter."""
    out: dict[str, Helper] = {}
    for fn in tree.body:
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
        if not params:
            continue
        assigned = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
        for node in ast.walk(fn):
            if not isinstance(node, ast.Call) or not node.args or not isinstance(node.args[0], ast.Name):
                continue
            kind = spawners.kind(node)
            name = node.args[0].id
            if kind is None or name not in params or name in assigned or not spawners.spawns(node):
                continue
            if kind[0] == "subprocess" or kind in _COMMAND_FIRST:
                out[fn.name] = Helper(params.index(name), name, node, kind)
                break
    return out


def called(tree: ast.Module, helpers: dict[str, Helper]) -> set[str]:
    """The helpers the file calls by name."""
    return {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in helpers}


def call_for(call: ast.Call, helper: Helper) -> ast.Call | None:
    """The helper's spawn as if written at `call`: its command the argument the call gives, with
    the helper's `shell=` (its other keywords name the helper's own variables)."""
    given = None
    if not any(isinstance(a, ast.Starred) for a in call.args[:helper.index + 1]) and len(call.args) > helper.index:
        given = call.args[helper.index]
    else:
        given = next((k.value for k in call.keywords if k.arg == helper.name), None)
    if given is None:
        return None
    out = ast.Call(func=helper.spawn.func, args=[given], keywords=[k for k in helper.spawn.keywords if k.arg == "shell"])
    return ast.copy_location(out, call) if hasattr(call, "lineno") else out


# a spawn whose command is a bare name (a parameter, maybe): the cheap test before a module is parsed
_BARE = re.compile(r"(?:subprocess\.(?:run|Popen|call|check_call|check_output)|os\.(?:system|popen))\(\s*(\w+)\s*[,)]")


def project_index(ctx) -> dict[str, list[tuple[str, Helper]]]:
    """{function name: [(module file, Helper)]} of the project's modules, read once per scan."""
    got = ctx.__dict__.get("_spawn_helpers")
    if got is not None:
        return got
    from vllm_kb.engine.scan.context import parse_python
    from vllm_kb.engine.scan.python_argv import spawners

    got = {}
    for rel in ctx.files:
        if not rel.endswith(".py"):
            continue
        text = ctx.read(rel)
        if not text or not (names := set(_BARE.findall(text))) or not any(re.search(rf"def \w+\([^)]*\b{n}\b", text) for n in names):
            continue
        try:
            tree = parse_python(text, rel)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        sp = spawners([n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))])
        for name, h in find(tree, sp).items():
            got.setdefault(name, []).append((rel, h))
    ctx.__dict__["_spawn_helpers"] = got
    return got


def imported(ctx, tree: ast.Module, text: str) -> dict[str, Helper]:
    """The project helpers this module imports by name from the module that defines them."""
    index = project_index(ctx)
    if not index or not any(name in text for name in index):
        return {}
    out: dict[str, Helper] = {}
    for node in tree.body:
        if not isinstance(node, ast.ImportFrom) or not node.module:
            continue
        tail = node.module.replace(".", "/") + ".py"
        for a in node.names:
            where = [h for rel, h in index.get(a.name, ()) if rel == tail or rel.endswith("/" + tail)]
            if len(where) == 1:
                out[a.asname or a.name] = where[0]
    return out


def may_call(ctx, text: str) -> bool:
    """For a module the prefilter drops: whether it may call a project helper it imports."""
    return "import" in text and any(name in text and re.search(rf"(?<![\w.]){re.escape(name)}\s*\(", text)
                                    for name in project_index(ctx))


def called_elsewhere(ctx, rel: str, helpers: dict[str, Helper]) -> set[str]:
    """The helpers of module `rel` that another project module imports by name and calls: their
    calls there are the sites, not the spawn inside (whose command is only the parameter)."""
    if not helpers:
        return set()
    stem = rel[:-3].replace("/", ".")
    tails = {stem.split(".", i)[-1] for i in range(stem.count(".") + 1)}  # pkg.utils, utils
    pattern = re.compile(r"^\s*from\s+(" + "|".join(re.escape(t) for t in sorted(tails)) + r")\s+import\s+([^\n]+)", re.M)
    out: set[str] = set()
    for other in ctx.files:
        if other == rel or not other.endswith(".py"):
            continue
        text = ctx.read(other)
        if not text or not any(n in text for n in helpers):
            continue
        for m in pattern.finditer(text):
            mod = m.group(1)
            if not (rel[:-3] == mod.replace(".", "/") or rel[:-3].endswith("/" + mod.replace(".", "/"))):
                continue
            out |= {n for n in helpers if re.search(rf"\b{re.escape(n)}\b", m.group(2))
                    and re.search(rf"(?<![\w.]){re.escape(n)}\s*\(", text)}
    return out
