"""Launches a Python program hands to a cluster through a job API, read as the YAML or shell form
of the same job is read:

- SkyPilot's Python API: `sky.Task(setup="pip install vllm==0.8.5", run="vllm serve M --tp 2",
  envs={…}, num_nodes=…)` with `task.set_resources(sky.Resources(accelerators="A100:2"))` — the
  task YAML's `run:`/`setup:`/`resources:` (engine/scan/deploy/skypilot.py): the release from
  setup's pip install, the GPUs from the accelerators;
- Ray's job submission: `JobSubmissionClient(addr).submit_job(entrypoint="vllm serve …",
  runtime_env={"pip": ["vllm==0.8.5"], "env_vars": {…}}, entrypoint_num_gpus=N)` — the entrypoint
  runs in a shell on the head node, with the runtime env's packages and variables.

The command is a Python string: it becomes a shell line (engine/scan/python_argv_words.py command_line,
values computed at run time as holes) that no fix edits — its bytes are Python's, not the shell's."""
from __future__ import annotations

import ast
import shlex

from vllm_kb.engine.scan import pins, python_argv_words
from vllm_kb.engine.scan.deploy import common
from vllm_kb.engine.scan.deploy.skypilot import RUN_ONLY, accelerators
from vllm_kb.engine.scan.python_scope import dotted
from vllm_kb.engine.scan.site import Setting, Site

WORDS = ("sky.Task", "submit_job")
CALLEES = ("Task", "submit_job")
SKY, RAY = "skypilot-task", "ray-job"
TARGETS = frozenset((SKY, RAY))


def imports(imported: list) -> dict[str, str]:
    """{callee as written: target}: `sky.Task` (import sky [as s]), `Task` (from sky import Task);
    `submit_job` when the module imports ray's job submission client (or ray itself)."""
    out: dict[str, str] = {}
    for node in imported:
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "sky":
                    out[(a.asname or "sky") + ".Task"] = SKY
                elif a.name.split(".")[0] == "ray":
                    out["submit_job"] = RAY
        elif isinstance(node, ast.ImportFrom) and node.module:
            root = node.module.split(".")[0]
            for a in node.names:
                if root == "sky" and a.name == "Task":
                    out[a.asname or a.name] = SKY
                elif root == "ray" and a.name == "JobSubmissionClient":
                    out["submit_job"] = RAY
    return out


def target(call: ast.Call, bound: dict[str, str]) -> str | None:
    if not bound:
        return None
    name = dotted(call.func)
    if bound.get(name) == SKY and any(k.arg == "run" for k in call.keywords):
        return SKY
    if isinstance(call.func, ast.Attribute) and call.func.attr == "submit_job" and bound.get("submit_job") == RAY \
            and any(k.arg == "entrypoint" for k in call.keywords):
        return RAY
    return None


def _line_of(node: ast.expr | None, call: ast.Call) -> int:
    return node.lineno if node is not None else call.lineno


def site(ctx, rel: str, text: str, call: ast.Call, r, which: str, tree: ast.Module) -> Site | None:
    kw = {k.arg: k.value for k in call.keywords if k.arg}
    notes: list[str] = []
    command = kw.get("run" if which == SKY else "entrypoint")
    line = python_argv_words.command_line(command, r, text, notes) if command is not None else None
    if not line or "vllm" not in line:
        return None
    envs = _mapping(kw.get("envs") if which == SKY else (r.value_or(kw["runtime_env"]) or {}).get("env_vars")
                    if "runtime_env" in kw else None, r)
    known = dict(envs)
    gpus: int | None = None
    types: list[str] = []
    installed = None
    if which == SKY:
        gpus, types = accelerators({"accelerators": _sky_accelerators(tree, r)})
        nodes = r.value_or(kw["num_nodes"]) if "num_nodes" in kw else 1
        if gpus is not None:
            known["SKYPILOT_NUM_GPUS_PER_NODE"] = str(gpus)
        if isinstance(nodes, int) and not isinstance(nodes, bool):
            known["SKYPILOT_NUM_NODES"] = str(nodes)
        setup = r.value_or(kw["setup"]) if "setup" in kw else None
        if isinstance(setup, str):
            installed = _installed(ctx, rel, setup, _line_of(kw["setup"], call))
    else:
        reqs = (r.value_or(kw["runtime_env"]) or {}).get("pip") if "runtime_env" in kw else None
        reqs = reqs.get("packages") if isinstance(reqs, dict) else reqs
        if isinstance(reqs, list) and all(isinstance(x, str) for x in reqs):
            installed = _installed(ctx, rel, "pip install " + shlex.join(reqs), _line_of(kw["runtime_env"], call))
        n = r.value_or(kw["entrypoint_num_gpus"]) if "entrypoint_num_gpus" in kw else None
        gpus = int(n) if isinstance(n, (int, float)) and not isinstance(n, bool) and n >= 1 else None
    tool = "skypilot" if which == SKY else "ray-job"
    env = {k: Setting(k, v, True, rel, call.lineno, k, v, tool) for k, v in envs.items()}
    version = ctx.catalog.installed_version(installed[0] if installed else None)
    out = common.shell_site(ctx, rel, line, call.lineno, "python-argv", env, None, known=known, end_line=call.end_lineno,
                            version=version)
    if out is None:
        return None
    for n in notes:
        out.opaque.append({"code": "conditional", "what": n, "where": f"{rel}:{call.lineno}"})
    out.tool = tool
    out.gpu_request = out.gpu_request or gpus
    out.gpu_types = out.gpu_types or types
    if installed:
        out.installed = installed
    return out


def _mapping(node_or_value, r) -> dict[str, str]:
    """A `{NAME: value}` of plain values (the task's envs, the runtime env's env_vars); what the code
    computes is left out — the launch reads it as an unset variable, unknown."""
    got = r.value_or(node_or_value) if isinstance(node_or_value, ast.AST) else node_or_value
    if not isinstance(got, dict):
        return {}
    return {str(k): ("" if v is None else str(v)) for k, v in got.items()
            if isinstance(k, str) and isinstance(v, (str, int, float)) and not isinstance(v, bool) and k not in RUN_ONLY}


def _sky_accelerators(tree: ast.Module, r):
    """The accelerators of the file's `sky.Resources(accelerators=…)` when all of them agree (a
    script that builds one task); None when there is none, or several that differ."""
    seen = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and dotted(node.func).rsplit(".", 1)[-1] == "Resources":
            for k in node.keywords:
                if k.arg == "accelerators":
                    v = r.value_or(k.value)
                    if v is None:
                        return None
                    if v not in seen:
                        seen.append(v)
    return seen[0] if len(seen) == 1 else None


def _installed(ctx, rel: str, script: str, line: int):
    found = pins.script_pins(ctx, rel, script)
    for p in found:
        p.line = line
    return pins.site_install(found, ctx.catalog.versions, ctx.catalog.newest)
