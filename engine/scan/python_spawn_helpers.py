"""A function of the file that runs the command it is handed: `def run_cmd(cmd): subprocess.run(cmd,
shell=True)` called as `run_cmd(f"docker run … vllm/vllm-openai:{TAG} --model {MODEL}")`, or
`def spawn(argv, log): return subprocess.Popen(argv, stdout=log)` called with a list built over a
few statements. The command exists only at the call of the helper, so that call is the site: its
argument is read in the caller's scope (python_argv, as if the spawn were written there, with the
helper's `shell=True`), and the spawn inside the helper, whose command is only a parameter, is
not a site of its own.

Only a module-level function whose body hands one of its parameters, never reassigned, as the
command of a subprocess call (subprocess.*, os.system/popen, asyncio's shell) is a helper; the
call must give that parameter by position or by name (`*args` that may hold it: not read)."""
from __future__ import annotations

import ast
from dataclasses import dataclass

_COMMAND_FIRST = {("os", "system"), ("os", "popen"), ("asyncio", "create_subprocess_shell")}


@dataclass(frozen=True)
class Helper:
    index: int  # the command parameter's position
    name: str  # and its name
    spawn: ast.Call  # the spawn inside the helper


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
                out[fn.name] = Helper(params.index(name), name, node)
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
