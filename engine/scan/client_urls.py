"""The server URL a client call in a Python file talks to, so that it is paired with the project's
server by endpoint (engine/check/endpoints.py): the `base_url` (`openai_api_base`, `api_base`) of
the OpenAI/LangChain client the call goes through, as a literal, a module constant or the default of
`os.environ.get`/`os.getenv`. A call through a client whose URL is not written here — `OpenAI()`
reads OPENAI_BASE_URL — or through one of several clients the file cannot tell apart has no URL."""
from __future__ import annotations

import ast

from vllm_kb.engine.scan.python_scope import walk

_CLIENTS = frozenset({"OpenAI", "AsyncOpenAI", "AzureOpenAI", "AsyncAzureOpenAI", "ChatOpenAI", "OpenAIChatCompletionsModel",
                      "OpenAILike", "ChatOpenAICompatible"})
_URL_KEYS = ("base_url", "openai_api_base", "api_base")
# the methods a client calls on `….completions` (chat or text) that send a request
_COMPLETION_METHODS = frozenset({"create", "acreate", "stream", "parse"})


def _name(node: ast.AST) -> str | None:
    """`client`, `self.client` → client: the name a client is kept under."""
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None


def _callee(call: ast.Call) -> str | None:
    return _name(call.func)


def is_completion_call(func: ast.Attribute) -> bool:
    """A call's target `client.chat.completions.create` (and the like): a request to a completions route."""
    return func.attr in _COMPLETION_METHODS and "completions" in ast.unparse(func.value)


def constants(tree: ast.Module) -> dict[str, str]:
    """The module's string constants (`BASE = "http://…"`)."""
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                out[node.targets[0].id] = node.value.value
    return out


def text_of(node: ast.AST | None, consts: dict[str, str]) -> str | None:
    """A URL written as a literal, a module constant, or the default of os.environ.get / os.getenv."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return consts.get(node.id)
    if isinstance(node, ast.Call) and _callee(node) in ("get", "getenv") and len(node.args) == 2:
        return text_of(node.args[1], consts)
    return None


class FileURLs:
    """The client URLs of one parsed file: by the variable the client is assigned to, and the
    file's one URL when it writes only one."""

    def __init__(self, tree: ast.Module):
        consts = constants(tree)
        self.by_var: dict[str, str | None] = {}
        urls: set[str | None] = set()
        clients: list[ast.Call] = []
        targets: dict[int, list[ast.expr]] = {}  # id of an assigned value → what it is assigned to
        for node in walk(tree):  # listed once per module (python_scope.walk), shared with the file's other readers
            if isinstance(node, ast.Call) and _callee(node) in _CLIENTS:
                clients.append(node)
            elif isinstance(node, ast.Assign):
                targets.setdefault(id(node.value), []).extend(node.targets)
                # openai.base_url = "…" / openai.api_base = "…": the module's default client
                if any(isinstance(t, ast.Attribute) and t.attr in ("base_url", "api_base") and _name(t.value) == "openai"
                       for t in node.targets):
                    urls.add(text_of(node.value, consts))
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                targets.setdefault(id(node.value), []).append(node.target)
        for call in clients:
            kw = {k.arg: k.value for k in call.keywords if k.arg}
            key = next((k for k in _URL_KEYS if k in kw), None)
            url = text_of(kw[key], consts) if key else None
            if key is not None or _callee(call) != "OpenAIChatCompletionsModel":  # a model wraps a client: it adds none
                urls.add(url)
            for t in targets.get(id(call), []):
                if (n := _name(t)) is not None:
                    # two clients under one name with different URLs: not told apart
                    self.by_var[n] = url if self.by_var.get(n, url) == url else None
        self.only = next(iter(urls)) if len(urls) == 1 else None

    def of(self, target: ast.AST) -> str | None:
        """The URL of the client a call's target (`client.chat.completions`, `llm`) hangs from."""
        node = target
        while isinstance(node, ast.Attribute):
            if node.attr in self.by_var:
                return self.by_var[node.attr]
            node = node.value
        if isinstance(node, ast.Name) and node.id in self.by_var:
            return self.by_var[node.id]
        return self.only
