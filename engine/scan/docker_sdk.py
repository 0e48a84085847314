"""Containers a Python program starts through a Docker client library, read as the `docker run` a
shell would write (engine/scan/docker_run.py reads that line: image → release, command → flags,
container facts):

- the Docker SDK for Python: `docker.from_env().containers.run(image, command, environment=…,
  device_requests=[DeviceRequest(count=-1, capabilities=[["gpu"]])], shm_size=…, ipc_mode=…)`, and
  `containers.create(…)` (the same container, started later); a string command is split as the SDK
  splits it (shlex), a list is the argv;
- python-on-whales: `docker.run(image, command, envs=…, gpus="all", shm_size=…, ipc=…)`, also
  `docker.container.run|create`.

What the code leaves unknown stays a hole of the line (never guessed); a device request the call
does not spell out adds no `--gpus`."""
from __future__ import annotations

import ast
import shlex

from vllm_kb.engine.scan import python_argv_words
from vllm_kb.engine.scan.deploy import common
from vllm_kb.engine.scan.python_flow import Flow, TrackedDict
from vllm_kb.engine.scan.python_scope import dotted
from vllm_kb.engine.scan.python_values import Unresolved
from vllm_kb.engine.scan.shell_expand import hole
from vllm_kb.engine.scan.site import Site

WORDS = ("containers.run", "containers.create", "python_on_whales")
CALLEES = ("create", "to_thread", "run_in_executor")  # beside `run`: the calls library() reads
_SDK, _WHALES = "docker-sdk", "python-on-whales"  # the scanner's targets, and the sites' tool
TARGETS = frozenset((_SDK, _WHALES))
# keyword → `docker run` option, per library (docker-py models/containers.py run(); python-on-whales
# components/container/cli_wrapper.py run())
_OPTIONS = {
    _SDK: {"shm_size": "--shm-size", "ipc_mode": "--ipc", "runtime": "--runtime", "name": "--name",
           "network": "--network", "network_mode": "--network", "user": "--user", "working_dir": "--workdir"},
    _WHALES: {"shm_size": "--shm-size", "ipc": "--ipc", "runtime": "--runtime", "name": "--name", "gpus": "--gpus",
              "networks": "--network", "user": "--user", "workdir": "--workdir"},
}


def imports(imported: list) -> dict[str, str]:
    """{local name: library} the module binds: `docker` (import docker [as d], from docker import
    from_env/DockerClient) or python-on-whales' client (`from python_on_whales import docker`)."""
    out: dict[str, str] = {}
    for node in imported:
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "docker":
                    out[a.asname or "docker"] = _SDK
                elif a.name == "python_on_whales":
                    out[(a.asname or a.name) + ".docker"] = _WHALES
        elif isinstance(node, ast.ImportFrom) and node.module:
            root = node.module.split(".")[0]
            for a in node.names:
                if root == "docker":
                    out[a.asname or a.name] = _SDK
                elif root == "python_on_whales" and a.name == "docker":
                    out[a.asname or a.name] = _WHALES
    return out


def _in_thread(call: ast.Call) -> ast.Call:
    """`await asyncio.to_thread(client.containers.run, image, command=…)` (also `loop.run_in_executor(None,
    functools.partial(client.containers.run, …))`): the call the thread makes, at the outer call's place."""
    f = call.func
    if isinstance(f, ast.Attribute) and f.attr == "to_thread" and call.args:
        return ast.copy_location(ast.Call(func=call.args[0], args=call.args[1:], keywords=call.keywords), call)
    if isinstance(f, ast.Attribute) and f.attr == "run_in_executor" and len(call.args) == 2 \
            and isinstance(inner := call.args[1], ast.Call) and dotted(inner.func).rsplit(".", 1)[-1] == "partial" and inner.args:
        return ast.copy_location(ast.Call(func=inner.args[0], args=inner.args[1:], keywords=inner.keywords), call)
    return call


def library(call: ast.Call, bound: dict[str, str]) -> str | None:
    """The library whose container `call` starts, or None."""
    f = _in_thread(call).func
    if not bound or not isinstance(f, ast.Attribute) or f.attr not in ("run", "create"):
        return None
    if isinstance(f.value, ast.Attribute) and f.value.attr == "containers" and _SDK in bound.values():
        return _SDK  # client.containers.run(…), docker.from_env().containers.run(…)
    base = dotted(f.value)
    base = base[:-len(".container")] if base.endswith(".container") else base
    return _WHALES if bound.get(base) == _WHALES else None


def site(ctx, rel: str, text: str, call: ast.Call, r, lib: str) -> Site | None:
    """`lib`: the target library() named."""
    notes: list[str] = []
    call = _in_thread(call)
    kw = _keywords(call, r, notes)
    image = call.args[0] if call.args else kw.get("image")
    if image is None:
        return None
    command = call.args[1] if len(call.args) > 1 else kw.get("command")
    words = ["docker", "run"]
    for key, opt in _OPTIONS[lib].items():
        if key in kw and (tok := _token(kw[key], r)) is not None:
            words += [opt, tok]
    words += _env(kw.get("envs" if lib == _WHALES else "environment"), r, notes)
    if lib == _SDK and (gpus := _device_requests(kw.get("device_requests"), r)) is not None:
        words += ["--gpus", gpus]
    words += _volumes(kw.get("volumes"), r)
    entry = kw.get("entrypoint")
    tail = ""
    if entry is not None:
        line = python_argv_words.command_line(entry, r, text, notes)
        first, _, rest = (line or hole(ast.unparse(entry))).partition(" ")
        words += ["--entrypoint", first]
        tail = rest
    words.append(_token(image, r) or hole(ast.unparse(image)))
    line = " ".join(words) + (" " + tail if tail else "")
    if command is not None:
        got = python_argv_words.command_line(command, r, text, notes)
        line += " " + (got if got is not None else hole(ast.unparse(command)))
    out = common.shell_site(ctx, rel, line, call.lineno, "python-argv", {}, None)
    if out is not None:
        for n in notes:
            out.opaque.append({"code": "conditional", "what": n, "where": f"{rel}:{call.lineno}"})
        out.tool = out.tool or lib
    return out


def _keywords(call: ast.Call, r, notes: list[str]) -> dict[str, ast.expr]:
    """The call's keywords, with those of a mapping it unpacks (`containers.run(**run_kwargs)`, the
    dict built in the function: an entry set under an undecided condition is left out and noted)."""
    out: dict[str, ast.expr] = {}
    for k in call.keywords:
        if k.arg:
            out[k.arg] = k.value
            continue
        got = (r.flow if r.flow is not None else Flow([], r))._container(k.value)
        for key, it in got.items.items() if isinstance(got, TrackedDict) else ():
            if it.uncertain or it.node is None:
                notes.append(f"{key} ({it.uncertain or 'unknown'})")
            else:
                out.setdefault(key, it.node)
    return out


def _token(node, r) -> str | None:
    """One word of the line: the value quoted, a hole for what the code leaves unknown (None: a
    keyword written as None or False, which sets nothing)."""
    v = r.value_or(node, Unresolved)
    if v is None or v is False:
        return None
    if v is True:
        return "true"
    if isinstance(v, (str, int, float)):
        return shlex.quote(str(v))
    if isinstance(node, ast.JoinedStr):
        return python_argv_words.fstring(node, r)
    return hole(ast.unparse(node))


def _env(node, r, notes: list[str]) -> list[str]:
    """`environment={"K": v}` / `["K=v"]`: `-e K=v` words (an unknown value keeps its name)."""
    if node is None:
        return []
    flow = r.flow if r.flow is not None else Flow([], r)
    got = flow._container(node)
    out: list[str] = []
    if isinstance(got, TrackedDict):
        for k, it in got.items.items():
            if it.uncertain:
                notes.append(f"{k} ({it.uncertain})")
                continue
            v = _token(it.node, r) if it.node is not None else hole(k)
            out += ["-e", f"{shlex.quote(k)}={v if v is not None else ''}"]
        return out
    v = r.value_or(node, Unresolved)
    if isinstance(v, (list, tuple)):
        return [w for x in v if isinstance(x, str) for w in ("-e", shlex.quote(x))]
    return ["--env-file", hole(ast.unparse(node))]  # variables the audit cannot read


def _device_requests(node, r) -> str | None:
    """`--gpus` of `device_requests=[DeviceRequest(count=-1 | N, device_ids=[…], capabilities=[["gpu"]])]`
    (or the API's dict form): all, N, device=…; None when the request is not written out."""
    if not isinstance(node, (ast.List, ast.Tuple)) or len(node.elts) != 1:
        return None
    req = node.elts[0]
    if isinstance(req, ast.Call):
        fields = {k.arg: r.value_or(k.value, Unresolved) for k in req.keywords if k.arg}
    else:
        got = r.value_or(req, Unresolved)
        fields = {k.lower().replace("deviceids", "device_ids"): v for k, v in got.items()} if isinstance(got, dict) else {}
    count, ids = fields.get("count"), fields.get("device_ids")
    if isinstance(ids, (list, tuple)) and ids and all(isinstance(x, (str, int)) for x in ids):
        return shlex.quote("device=" + ",".join(str(x) for x in ids))
    if count == -1:
        return "all"
    return str(count) if isinstance(count, int) and not isinstance(count, bool) and count > 0 else None


def _volumes(node, r) -> list[str]:
    """`volumes={"/host": {"bind": "/in", "mode": "ro"}}`, `["/host:/in"]` (docker SDK) or
    `[("/host", "/in")]` (python-on-whales): `-v` words, so a model at a mounted path is known."""
    v = r.value_or(node, Unresolved) if node is not None else None
    out: list[str] = []
    if isinstance(v, dict):
        for src, spec in v.items():
            bind = spec.get("bind") if isinstance(spec, dict) else spec if isinstance(spec, str) else None
            if isinstance(src, str) and isinstance(bind, str):
                out += ["-v", shlex.quote(f"{src}:{bind}")]
    elif isinstance(v, (list, tuple)):
        for x in v:
            spec = x if isinstance(x, str) else ":".join(map(str, x[:2])) if isinstance(x, (list, tuple)) and len(x) >= 2 else None
            if spec:
                out += ["-v", shlex.quote(spec)]
    return out
