"""How a module's imports name the public wrappers of knowledge/deploy/llm_wrappers.yaml
(engine/scan/python_subclass.py reads their calls): `curator.LLM` through `from bespokelabs import
curator`, `outlines.models.vllm` through `import outlines`, the module's own subclasses of a
forwarder, and the modules a class must come from. Values are python_subclass.Wrapper objects."""
from __future__ import annotations

import ast


def dotted(node: ast.expr) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return ".".join([node.id, *reversed(parts)]) if isinstance(node, ast.Name) else None


def paths(node, known: dict, out: dict) -> None:
    """Module functions known by their dotted path, as an import binds them: `import outlines` →
    `outlines.models.vllm`, `from outlines import models` → `models.vllm`, `from outlines.models
    import vllm` → `vllm`."""
    if isinstance(node, ast.ImportFrom) and node.level or not isinstance(node, (ast.Import, ast.ImportFrom)):
        return
    for a in node.names:
        full = a.name if isinstance(node, ast.Import) else f"{node.module}.{a.name}"
        local = a.asname or (a.name.split(".")[0] if isinstance(node, ast.Import) else a.name)
        bound = full if a.asname or isinstance(node, ast.ImportFrom) else a.name.split(".")[0]
        for w in known.values():
            if w.path == full:
                out[local] = w
            elif w.path.startswith(bound + "."):
                out[local + w.path[len(bound):]] = w


def subclasses(tree: ast.Module, out: dict) -> None:
    """The module's classes that subclass a public forwarder without an `__init__` of their own
    (curator's documented `class RecipeGenerator(curator.LLM)` with its prompt and parse): their
    calls take the forwarder's parameters."""
    for node in tree.body:
        if not isinstance(node, ast.ClassDef) or node.name in out:
            continue
        if any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == "__init__" for n in node.body):
            continue
        for b in node.bases:
            name = b.id if isinstance(b, ast.Name) else f"{b.value.id}.{b.attr}" \
                if isinstance(b, ast.Attribute) and isinstance(b.value, ast.Name) else None
            w = out.get(name) if name else None
            if w is not None and w.forwarder and not w.method and not w.prefix:
                out[node.name] = w
                break


def through(module: str, local: str, known: dict) -> dict:
    """A package's classes as a module bound to `local` names them (`curator.LLM`): the classes of
    the module's top-level package, when that package is one the knowledge lists."""
    top = module.split(".")[0]
    return {f"{local}.{c}": w for (mod, c), w in known.items() if mod == top and not w.prefix and not w.method and not w.path and imported(w, module)}


def imported(w, module: str) -> bool:
    """Whether the class comes from a module it is listed under (distilabel 0.x's `distilabel.llm.vLLM`
    wrapped an LLM the caller built; 1.x's `distilabel.llms` / `distilabel.models` one builds it)."""
    return not w.imports or any(module == m or module.startswith(m + ".") for m in w.imports)
