"""A command chosen in branches: `if gptoss: cmd = [vllm serve …] else: cmd = [python -m
vllm.entrypoints.openai.api_server …]` and then `subprocess.Popen(cmd)` (laureano-arcanio/
balanced-vllm-docker's scripts/vllm_launcher.py, eval77). The flow (engine/scan/python_flow.py)
cannot tell which branch runs, so the name is unknown there; where every branch of an `if` (with
its `elif`s and a final `else`) assigns the name as its last word on it, each assigned value is one
command the program may run, and the spawn reads each as a site of its own (engine/scan/
python_argv.py). A later statement that changes the value in place (`cmd.append`, `cmd += …`,
`cmd[0] = …`) drops the choices: what it adds is not read into each of them."""
from __future__ import annotations

import ast

_MUTATORS = {"append", "extend", "insert", "remove", "pop", "clear", "sort", "reverse", "update", "setdefault", "popitem"}


def choices(st: ast.If) -> dict[str, tuple[ast.expr, ...]]:
    """name → the value each branch of `st` gives it, for the names every branch assigns."""
    branches: list[list[ast.stmt]] = []
    cur: ast.If = st
    while True:
        branches.append(cur.body)
        if len(cur.orelse) == 1 and isinstance(cur.orelse[0], ast.If):
            cur = cur.orelse[0]
            continue
        if not cur.orelse:
            return {}  # no else: the name may keep what it had before the if
        branches.append(cur.orelse)
        break
    per = [_last_assigned(b) for b in branches]
    names = set(per[0]).intersection(*per[1:])
    return {n: tuple(p[n] for p in per) for n in sorted(names)}


def _last_assigned(body: list[ast.stmt]) -> dict[str, ast.expr]:
    """The names a branch's own statements assign, with the value of the last assignment, where
    no statement after it changes the value in place."""
    out: dict[str, ast.expr] = {}
    for s in body:
        for name in list(out):
            if mutates(s, name):
                del out[name]
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name):
            out[s.targets[0].id] = s.value
        elif isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name) and s.value is not None:
            out[s.target.id] = s.value
    return out


def mutates(st: ast.stmt, name: str) -> bool:
    """Whether the statement rebinds `name` or changes its value in place."""
    for n in ast.walk(st):
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, (ast.Store, ast.Del)):
            return True
        if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == name \
                and isinstance(n.ctx, (ast.Store, ast.Del)):
            return True
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) \
                and n.func.value.id == name and n.func.attr in _MUTATORS:
            return True
    return False
