"""Names vLLM registers at import time rather than declares on an argument: tool-call parsers
(`--tool-call-parser`), reasoning parsers (`--reasoning-parser`), and the compilation /
optimization level enums whose members the JSON configs and `-O` take."""
from __future__ import annotations

import ast
from pathlib import Path

from catalog_extract.configs import _enum_values, _is_constants
from catalog_extract.sources import Source

# Where each release keeps its parser modules (0.6.0 … 0.34.0 between them).
_PARSER_DIRS = {
    "tool_call_parser": ("vllm/entrypoints/openai/tool_parsers", "vllm/tool_parsers"),
    "reasoning_parser": ("vllm/entrypoints/openai/reasoning_parsers", "vllm/reasoning"),
}
_LAZY_TABLES = {"tool_call_parser": "_TOOL_PARSERS_TO_REGISTER", "reasoning_parser": "_REASONING_PARSERS_TO_REGISTER"}


def _names(node) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.List, ast.Tuple)):
        return [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return []


def _registered(path: Path, table: str) -> list[str]:
    text = path.read_text(encoding="utf-8", errors="replace")
    if "register_module" not in text and "register_lazy_module" not in text and table not in text:
        return []
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr == "register_module" and "Manager" in ast.unparse(node.func.value):
                arg = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "name"), None)
                out += _names(arg)
            elif node.func.attr == "register_lazy_module":
                arg = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "name"), None)
                out += _names(arg)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == table for t in targets) and isinstance(node.value, ast.Dict):
                out += [k.value for k in node.value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
    return out


def parsers(root: Path, choices_by_flag: dict) -> dict[str, list[str]]:
    """Registered parser names per kind; a release that lists them as flag choices (0.6.x tool
    parsers) is read from the flag."""
    out = {}
    for kind, dirs in _PARSER_DIRS.items():
        names: list[str] = []
        for d in dirs:
            base = root / d
            if base.is_dir():
                for path in sorted(base.rglob("*.py")):
                    names += _registered(path, _LAZY_TABLES[kind])
        flag = "--" + kind.replace("_", "-")
        if not names and choices_by_flag.get(flag):
            names = list(choices_by_flag[flag])
        names = list(dict.fromkeys(n for n in names if n))
        if names:
            out[kind] = names
    return out


def level_enums(src: Source) -> dict[str, dict]:
    """Compilation levels (≤0.11.0), compilation modes (0.11.1+), optimization levels (0.12+),
    CUDA-graph modes and performance modes: values (ints where vLLM compares ints) and names."""
    out = {}
    for key, cname, mods in (
        ("compilation_levels", "CompilationLevel", ["vllm.config.compilation", "vllm.config"]),
        ("compilation_modes", "CompilationMode", ["vllm.config.compilation", "vllm.config"]),
        ("optimization_levels", "OptimizationLevel", ["vllm.config.vllm", "vllm.config"]),
        ("cudagraph_modes", "CUDAGraphMode", ["vllm.config.compilation", "vllm.config"]),
    ):
        info = src.find_class(mods, cname)
        if info is None or not (info.is_enum or _is_constants(info)):
            continue
        values, names = _enum_values(info)
        rec = {"values": values}
        if names:
            rec["names"] = names
        out[key] = rec
    return out
