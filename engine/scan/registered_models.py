"""Architectures the project registers with vLLM itself (`ModelRegistry.register_model("Arch",
ModelClass)` or a "module:Class" string, in its own code or in the plugin its entry points load):
vLLM resolves the checkpoint's architecture against its registry, so a class the project adds
there is implemented whatever the release ships (vLLM docs: "Registering a model" — out-of-tree
models). Read once before the scan, like the project's LLM subclasses."""
from __future__ import annotations

import ast

from vllm_kb.engine.scan.context import parse_python, texts_with


def index(ctx, files: list[str]) -> dict[str, str]:
    """Architecture name → where the project registers it (`file:line`)."""
    out: dict[str, str] = {}
    for rel, text in texts_with(ctx, files, ".py", "register_model", "ModelRegistry"):
        try:
            tree = parse_python(text, rel)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            if not (isinstance(f, ast.Attribute) and f.attr == "register_model" and _is_registry(f.value)):
                continue
            first = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "model_arch"), None)
            if isinstance(first, ast.Constant) and isinstance(first.value, str) and first.value:
                out.setdefault(first.value, f"{rel}:{node.lineno}")
    return out


def _is_registry(node: ast.AST) -> bool:
    """`ModelRegistry` or `vllm.ModelRegistry` / `vllm.model_executor.models.ModelRegistry`."""
    return (isinstance(node, ast.Name) and node.id == "ModelRegistry") or (
        isinstance(node, ast.Attribute) and node.attr == "ModelRegistry")
