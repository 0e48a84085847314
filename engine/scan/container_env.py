"""The environment a cloud SDK gives the container it deploys: Vertex AI's
`Model.upload(serving_container_environment_variables={…})`, SageMaker's `env={…}` /
`PrimaryContainer.Environment`, a spec's `"env": [{"name": …, "value": …}]` (Cloud Run, Azure) or
kubernetes' `V1Container(env=[V1EnvVar(name=…, value=…)])`. These are the variables vLLM runs with
in the container, so they are the site's environment: a gated model's token among them reaches the
process (engine/check/hf_access.py). A secret's value is never kept, only its name."""
from __future__ import annotations

import ast
import re

from vllm_kb.engine.scan.python_flow import Flow, TrackedDict, TrackedList
from vllm_kb.engine.scan.python_scope import dotted
from vllm_kb.engine.scan.site import Setting

# names whose value is a credential: kept by name only
_SECRET = re.compile(r"TOKEN|SECRET|PASSWORD|KEY", re.I)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def env_of(r, node: ast.expr | None, rel: str, line: int, tool: str) -> dict[str, Setting]:
    """name → Setting for each variable the mapping or list `node` sets (an unknown value: unresolved)."""
    if node is None:
        return {}
    flow = r.flow if r.flow is not None else Flow([], r)
    got = flow._container(node)
    if isinstance(got, TrackedDict):
        pairs = [(k, it.node) for k, it in got.items.items() if isinstance(k, str)]
    elif isinstance(got, TrackedList):
        pairs = [p for it in got.items if (p := _entry(it.node, r)) is not None]
    else:
        value = r.value_or(node)
        if not isinstance(value, dict):
            return {}
        pairs = [(k, ast.Constant(v) if isinstance(v, (str, int, float)) else None) for k, v in value.items() if isinstance(k, str)]
    out: dict[str, Setting] = {}
    for name, vnode in pairs:
        if not _NAME.fullmatch(name):
            continue
        try:
            value = r.value_or(vnode) if vnode is not None else None
        except RecursionError:
            value = None
        keep = isinstance(value, (str, int, float)) and not isinstance(value, bool) and not _SECRET.search(name)
        shown = str(value) if keep else ""
        out[name] = Setting(name, shown if keep else None, keep, rel, line, name, shown, tool)
    return out


def _entry(node: ast.expr | None, r) -> tuple[str, ast.expr | None] | None:
    """(name, value node) of `{"name": K, "value": v}` or `V1EnvVar(name=K, value=v)`; a
    `valueFrom` / `secretRef` entry keeps its name with no value."""
    if isinstance(node, ast.Dict):
        got = {k.value: v for k, v in zip(node.keys, node.values) if isinstance(k, ast.Constant) and isinstance(k.value, str)}
    elif isinstance(node, ast.Call) and dotted(node.func).rsplit(".", 1)[-1] in ("V1EnvVar", "EnvVar"):
        got = {k.arg: k.value for k in node.keywords if k.arg}
        if node.args and "name" not in got:
            got["name"] = node.args[0]
    else:
        return None
    name = r.value_or(got.get("name"))
    return (name, got.get("value")) if isinstance(name, str) else None
