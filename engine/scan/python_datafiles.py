"""A config file the module reads itself, read as data: `yaml.safe_load(open("config.yaml"))`,
`with open(path) as f: cfg = json.load(f)`, `OmegaConf.load(path)` — the model and the engine
arguments a script takes from its own YAML or JSON file (`LLM(model=cfg["model"])`). The path must
be a value the code fixes and name a file of the project (next to the script, else from the
project's root, as `ScanContext.resolve_ref` finds it); the file is parsed as YAML/JSON, never
executed. Anything else stays unknown."""
from __future__ import annotations

import ast
import json

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan.python_scope import dotted

_LOADERS = {"yaml.safe_load": "yaml", "yaml.load": "yaml", "yaml.full_load": "yaml", "json.load": "json",
            "OmegaConf.load": "path", "omegaconf.OmegaConf.load": "path"}


def _opened(node: ast.AST, tree: ast.Module | None):
    """The path expression of `open(path…)`, or of the one `with open(path) as name` that binds a Name."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open" and node.args:
        return node.args[0]
    if isinstance(node, ast.Name) and tree is not None:
        found = [item.context_expr for st in ast.walk(tree) if isinstance(st, (ast.With, ast.AsyncWith))
                 for item in st.items if isinstance(item.optional_vars, ast.Name) and item.optional_vars.id == node.id]
        if len(found) == 1:
            return _opened(found[0], None)
    return None


def file_of(resolver, node) -> str | None:
    """The project file a loader call reads, where the code fixes its path; else None."""
    kind = _LOADERS.get(dotted(node.func)) if isinstance(node, ast.Call) else None
    links = resolver.links
    if kind is None or not node.args or links is None or getattr(links, "ctx", None) is None:
        return None
    path_node = node.args[0] if kind == "path" else _opened(node.args[0], resolver.tree)
    path = resolver.value_or(path_node) if path_node is not None else None
    rel = links.ctx.resolve_ref(links.rel, path) if isinstance(path, str) and not path.startswith(("/", "~")) else None
    return rel if rel is not None and links.ctx.read(rel) is not None else None


def load(resolver, node: ast.Call, unresolved: type[Exception]):
    """The data of the file a loader call reads; `unresolved` raised when it cannot be known."""
    kind = _LOADERS.get(dotted(node.func))
    links = resolver.links
    if kind is None or not node.args or links is None or getattr(links, "ctx", None) is None:
        raise unresolved(node)
    path_node = node.args[0] if kind == "path" else _opened(node.args[0], resolver.tree)
    if path_node is None:
        raise unresolved(node, f"`{ast.unparse(node)}` reads a file the code does not name")
    path = resolver.value(path_node)
    rel = links.ctx.resolve_ref(links.rel, path) if isinstance(path, str) and not path.startswith(("/", "~")) else None
    text = links.ctx.read(rel) if rel else None
    if text is None or rel is None:
        raise unresolved(node, f"{path!r} is not a file of the project")
    try:
        data = json.loads(text) if kind == "json" or rel.endswith(".json") else yamlio.load(text).data
    except (ValueError, yamlio.YamlError):
        raise unresolved(node, f"{rel} does not parse") from None
    resolver._assume(f"read from {rel}")
    return data
