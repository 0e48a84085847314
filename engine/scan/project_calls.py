"""The vLLM constructors the project's launch path calls itself (`SamplingParams(…)`,
`OpenAIServingChat(…)`, `LoRARequest(…)`), with the keywords each call passes — held against the
keywords the release takes (knowledge/frameworks/vllm_classes.json) by
engine/check/project_kwargs.py. Read statically from the files engine/scan/project_imports.py
finds the launch file loading.

A keyword is one written at the call (`n=2`), or a string key of a dict literal spread into it
(`**{"use_beam_search": False}`, or `**params` where `params` is assigned one dict literal in the
same scope). When the call runs: at start when it stands at module level or in any `__init__` (a
server builds its service class as it starts: BentoML's, Ray Serve's), or in `main` or a set-up function (`setup_*`, `init_*`, `load_*`, `build_*`, `create_*`, `start*`, `lifespan`,
a `startup` hook); else when the function is called — a request handler, most often."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass

CLASSES = frozenset({"SamplingParams", "OpenAIServingChat", "OpenAIServingCompletion", "OpenAIServingModels",
                     "BaseModelPath", "LoRARequest", "OpenAIServingEmbedding"})
_START = re.compile(r"^(__init__|main|lifespan|startup|on_startup|(setup|init|load|build|create|start|make)(_\w*)?)$|startup")


@dataclass(frozen=True)
class ClassCall:
    cls: str  # vLLM's class name
    keywords: tuple[str, ...]
    file: str
    line: int
    at_start: bool


def _bound_classes(module: ast.Module) -> tuple[dict[str, str], set[str]]:
    """Local names bound to the classes (`from vllm… import SamplingParams as SP`), and the names
    `vllm` is imported as (for `vllm.SamplingParams(…)`)."""
    local: dict[str, str] = {}
    pkg: set[str] = set()
    for node in ast.walk(module):
        if isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] == "vllm":
            for a in node.names:
                if a.name in CLASSES:
                    local[a.asname or a.name] = a.name
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "vllm":
                    pkg.add(a.asname or "vllm")
    return local, pkg


def _dict_keys(node: ast.expr) -> list[str] | None:
    if isinstance(node, ast.Dict) and all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in node.keys):
        return [k.value for k in node.keys]  # type: ignore[union-attr]
    return None


def _scope_dicts(body) -> dict[str, list[str]]:
    """Names assigned exactly once in a scope's own statements, to a dict literal of string keys."""
    seen: dict[str, int] = {}
    dicts: dict[str, list[str]] = {}
    for node in body:
        for sub in ast.walk(node):
            if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and sub is not node:
                continue
            if isinstance(sub, ast.Assign) and len(sub.targets) == 1 and isinstance(sub.targets[0], ast.Name):
                name = sub.targets[0].id
                seen[name] = seen.get(name, 0) + 1
                keys = _dict_keys(sub.value)
                if keys is not None:
                    dicts[name] = keys
    return {n: k for n, k in dicts.items() if seen.get(n) == 1}


def _keywords(call: ast.Call, dicts: dict[str, list[str]]) -> tuple[str, ...]:
    out: list[str] = []
    for kw in call.keywords:
        if kw.arg is not None:
            out.append(kw.arg)
        elif isinstance(kw.value, ast.Name) and kw.value.id in dicts:
            out += dicts[kw.value.id]
        else:
            out += _dict_keys(kw.value) or []
    return tuple(dict.fromkeys(out))


def _is_start_hook(fn) -> bool:
    return _START.search(fn.name) is not None or any("startup" in ast.unparse(d) for d in fn.decorator_list)


def calls(path: str, module: ast.Module) -> list[ClassCall]:
    local, pkg = _bound_classes(module)
    if not local and not pkg:
        return []
    out: list[ClassCall] = []

    def visit(body, at_start: bool) -> None:
        dicts = _scope_dicts(body)
        for node in body:
            stack = [node]
            while stack:
                n = stack.pop()
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    # an __init__ runs when its class is built: a server builds its service class at start
                    visit(n.body, (at_start and _is_start_hook(n)) or n.name == "__init__")
                    continue
                if isinstance(n, ast.ClassDef):
                    visit(n.body, at_start)
                    continue
                if isinstance(n, ast.Call):
                    f = n.func
                    cls = local.get(f.id) if isinstance(f, ast.Name) else \
                        f.attr if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in pkg \
                        and f.attr in CLASSES else None
                    if cls:
                        out.append(ClassCall(cls, _keywords(n, dicts), path, n.lineno, at_start))
                stack.extend(reversed(list(ast.iter_child_nodes(n))))

    visit(module.body, True)
    return out
