"""Amazon SageMaker models of AWS's vLLM container, declared in Python: the SageMaker SDK's
`Model(image_uri=…, env={…})` (HuggingFaceModel and the other Model classes take the same two
keywords) and boto3's `create_model(PrimaryContainer={"Image": …, "Environment": {…}})`. The
container's entrypoint turns each SM_VLLM_<NAME> variable into `--<name> <value>`
(knowledge/deploy/env_images.yaml `sagemaker-vllm`), so the mapping is the site's command line;
each value stays the mapping's own entry (a change names the variable)."""
from __future__ import annotations

import ast

from vllm_kb.engine.scan import container_env
from vllm_kb.engine.scan.deploy import common
from vllm_kb.engine.scan.image_env import env_command
from vllm_kb.engine.scan.images import env_image
from vllm_kb.engine.scan.python_flow import Flow, TrackedDict
from vllm_kb.engine.scan.shell import Seg, Word
from vllm_kb.engine.scan.site import Site

PREFIX = "SM_VLLM_"


def is_call(call: ast.Call) -> bool:
    """A call that names a container image and its environment the SageMaker way."""
    kw = {k.arg for k in call.keywords if k.arg}
    return {"image_uri", "env"} <= kw or "PrimaryContainer" in kw


def _mapping(r, node) -> TrackedDict | None:
    flow = r.flow if r.flow is not None else Flow([], r)
    got = flow._container(node) if node is not None else None
    return got if isinstance(got, TrackedDict) else None


def _text(r, node) -> str | None:
    v = r.value_or(node)
    return str(v) if isinstance(v, (str, int, float)) and not isinstance(v, bool) else None


def _word(r, node, text: str) -> Word:
    raw = ast.unparse(node)
    value = _text(r, node)
    w = Word(raw=raw, line=node.lineno, segs=[Seg("lit", raw)], start=-1, end=-1)
    w.value = None if value is None else str(value)
    w.unresolved = None if value is not None else raw
    return w


def site(ctx, rel: str, text: str, call: ast.Call, r) -> Site | None:
    kw = {k.arg: k.value for k in call.keywords if k.arg}
    if "PrimaryContainer" in kw:
        box = _mapping(r, kw["PrimaryContainer"])
        image_item, env_item = (box.items.get("Image"), box.items.get("Environment")) if box is not None else (None, None)
        image_node, env_node = (image_item.node if image_item else None), (env_item.node if env_item else None)
    else:
        image_node, env_node = kw.get("image_uri"), kw.get("env")
    image = _text(r, image_node) if image_node is not None else None
    env = _mapping(r, env_node)
    if not isinstance(image, str) or env is None or env_image(image) is None:
        return None
    words = [(k, _word(r, it.node, text)) for k, it in env.items.items() if isinstance(k, str) and it.node is not None]
    if not any(k.startswith(PREFIX) for k, _ in words):
        return None
    argv = env_command(image, words, call.lineno, ctx.catalog)
    got = common.launch_site(ctx, rel, argv, call.lineno, call.end_lineno or call.lineno, "python-argv", "argv", {}, image) \
        if argv else None
    if got is not None:
        got.tool, got.image = "sagemaker", image
        # the variables beside the SM_VLLM_* flags (HF_TOKEN) are the container's environment
        got.env = {**{k: v for k, v in container_env.env_of(r, env_node, rel, call.lineno, "sagemaker").items()
                      if not k.startswith(PREFIX)}, **got.env}
        got.opaque += [{"code": "spread", "what": u, "where": f"{rel}:{call.lineno}"} for u in env.unknown]
    return got
