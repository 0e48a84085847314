"""Container specs a Python program builds for a cloud API — a dict literal such as Cloud Run's or Azure
Container Apps' `{"image": "vllm/vllm-openai:v0.15.1", "args": container_args}`, a deploy plan that keeps
`"container_args": json.dumps(container_args)` beside its image (tandemn-tuna), or a client class such as
kubernetes' `client.V1Container(name=…, image=…, command=[…], args=[…])`: the image gives the release
and the entrypoint (engine/scan/images.py), the argv lists the flags — read as Vertex AI's
`Model.upload(serving_container_args=…)` is (engine/scan/python_argv.py container_site). Values the
program computes at run time are holes; `.append/.extend` under an `if` are conditional pieces, reported."""
from __future__ import annotations

import ast
import re

from vllm_kb.engine.scan import container_env, python_argv
from vllm_kb.engine.scan.deploy import common
from vllm_kb.engine.scan.python_scope import dotted
from vllm_kb.engine.scan.site import Site

TARGET = "container-spec"
CALLEES = ("V1Container", "Container")
# the keys (and keywords) that hold the container's argv, by how the APIs spell them
_ARGS = ("args", "container_args", "arguments")
_COMMAND = ("command", "container_command")


def mentions(text: str) -> bool:
    """The prefilter's test: a file that may build a spec spells an image key or keyword, an argv
    key, and the vLLM its image names."""
    return ('"image"' in text or "'image'" in text or "image=" in text) and ("args" in text or "command" in text) \
        and _IMAGE.search(text) is not None


# a quoted image reference that names vLLM: `"vllm/vllm-openai:v0.15.1"`, `"rocm/vllm-dev"`, `"my-vllm:1"`
_IMAGE = re.compile(r"""["'](?:[\w.-]+/)+[\w.-]*vllm[\w.-]*(?::[^"'\s]*)?["']|["'][\w.-]*vllm[\w.-]*:[^"'\s]+["']""")


def _key(k) -> str | None:
    return k.value if isinstance(k, ast.Constant) and isinstance(k.value, str) else None


def candidate(node: ast.Dict) -> bool:
    keys = {_key(k) for k in node.keys}
    return "image" in keys and bool(keys & {*_ARGS, *_COMMAND})


def target(call: ast.Call) -> str | None:
    name = dotted(call.func).rsplit(".", 1)[-1]
    kw = {k.arg for k in call.keywords}
    return TARGET if name in CALLEES and "image" in kw and kw & {*_ARGS, *_COMMAND} else None


def _argv(node: ast.expr | None) -> ast.expr | None:
    """`json.dumps(container_args)`: the list it writes (a plan that keeps its argv as JSON text)."""
    if isinstance(node, ast.Call) and dotted(node.func) in ("json.dumps", "dumps") and len(node.args) == 1:
        return node.args[0]
    return node


def site(ctx, rel: str, text: str, node, r) -> Site | None:
    if isinstance(node, ast.Dict):
        got = {_key(k): v for k, v in zip(node.keys, node.values) if _key(k)}
    else:
        got = {k.arg: k.value for k in node.keywords if k.arg}
    img = r.value_or(got.get("image"))
    if not (isinstance(img, str) and common.is_vllm_like_image(img)):
        return None  # an image the program computes, or one that is not vLLM's: no entrypoint to read
    command = _argv(next((got[k] for k in _COMMAND if k in got), None))
    args = _argv(next((got[k] for k in _ARGS if k in got), None))
    out = python_argv.container_site(ctx, rel, text, node, r, command, args, img, "container-spec")
    if out is not None:
        out.env = {**container_env.env_of(r, got.get("env"), rel, node.lineno, "container-spec"), **out.env}
    return out
