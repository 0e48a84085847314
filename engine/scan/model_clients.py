"""Code in the project that asks an OpenAI-compatible server for a model by name, read with `ast`:
`…chat.completions.create(model="X")` / `…completions.create(model="X")` through an OpenAI client,
and `requests`/`httpx` posts to `…/v1/chat/completions` or `…/v1/completions` whose JSON body names
`"model": "X"`. vLLM answers a name it does not serve (`--served-model-name`, else the `--model` as
written, or a `--lora-modules` name) with HTTP 404 "The model `X` does not exist." The server a
call reaches is found by its URL (engine/check/endpoints.py)."""
from __future__ import annotations

import ast
from typing import NamedTuple

from vllm_kb.engine.scan.client_urls import FileURLs, constants, is_completion_call, text_of
from vllm_kb.engine.scan.context import ScanContext, parse_python
from vllm_kb.engine.scan.python_scope import walk

_POSTS = frozenset({"post", "request"})
_ROUTES = ("/v1/chat/completions", "/v1/completions")


class ModelClient(NamedTuple):
    where: str
    url: str | None
    model: str | None
    max_tokens: int | None = None  # max_tokens / max_completion_tokens written as a number


def model_clients(ctx: ScanContext, files: list[str]) -> list[ModelClient]:
    """Each call that names its model as a literal (or a module constant), with the server URL."""
    out: list[ModelClient] = []
    for rel in files:
        if not rel.endswith(".py"):
            continue
        text = ctx.read(rel) or ""
        if "completions" not in text or "model" not in text:
            continue
        try:
            tree = parse_python(text, rel)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        consts, urls, dicts = constants(tree), None, None
        for node in walk(tree):  # the module's nodes, listed once for FileURLs and _dicts too
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            if is_completion_call(node.func):
                kw = {k.arg: k.value for k in node.keywords if k.arg}
                model, most = text_of(kw.get("model"), consts), _number(kw.get("max_completion_tokens", kw.get("max_tokens")))
                if model or most:
                    urls = urls or FileURLs(tree)
                    out.append(ModelClient(f"{rel}:{node.lineno}", urls.of(node.func.value), model, most))
            elif node.func.attr in _POSTS:
                dicts = _dicts(tree) if dicts is None else dicts  # the file's request bodies, read once
                if (hit := _post(node, consts, dicts)) is not None:
                    out.append(ModelClient(f"{rel}:{node.lineno}", *hit))
    return out


def _dicts(tree: ast.Module) -> dict[str, ast.Dict]:
    """The module's and functions' `body = {…}` dict literals by name (a request body built before the post)."""
    return {t.id: n.value for n in walk(tree) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Dict)
            for t in n.targets if isinstance(t, ast.Name)}


def _number(node: ast.AST | None) -> int | None:
    return node.value if isinstance(node, ast.Constant) and type(node.value) is int and node.value > 0 else None


def _post(call: ast.Call, consts: dict[str, str], dicts: dict[str, ast.Dict]) -> tuple[str, str | None, int | None] | None:
    """(server URL, model, max_tokens) of `requests.post(URL, json={"model": …})` to a completions route."""
    args = call.args[1:] if isinstance(call.func, ast.Attribute) and call.func.attr == "request" else call.args  # request("POST", url, …)
    url = text_of(args[0] if args else next((k.value for k in call.keywords if k.arg == "url"), None), consts)
    if url is None:
        return None
    route = next((r for r in _ROUTES if url.rstrip("/").endswith(r)), None)
    body = next((k.value for k in call.keywords if k.arg == "json"), None)
    body = dicts.get(body.id) if isinstance(body, ast.Name) else body
    if route is None or not isinstance(body, ast.Dict):
        return None
    fields = {k.value: v for k, v in zip(body.keys, body.values) if isinstance(k, ast.Constant)}
    model, most = text_of(fields.get("model"), consts), _number(fields.get("max_completion_tokens", fields.get("max_tokens")))
    return (url.rstrip("/")[: -len(route)] + "/v1", model, most) if model or most else None
