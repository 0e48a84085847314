"""What a vLLM command-line entry point (engine/scan/argv_entry.py) sets on the parsed namespace
itself before it builds the engine: `args = parser.parse_args()` then `args.model = MODEL_PATH`,
`args.gpu_memory_utilization = share(…)`, `args.trust_remote_code = True` (QAnything's
sanic_api.py, FastChat-style workers). Such an assignment wins over the command line. A constant
(or a module-level name bound once to one) is its value; anything else (a call, an expression of
the run) is a value the audit cannot know, never the command line's."""
from __future__ import annotations

import ast
from dataclasses import dataclass

from vllm_kb.engine.scan.python_scope import walk

_PARSE = ("parse_args", "parse_known_args")


@dataclass(frozen=True)
class Assign:
    value: object  # None where not resolved
    resolved: bool
    line: int
    raw: str


def assignments(tree: ast.Module) -> dict[str, Assign]:
    """attribute → what the module assigns to it on the namespace parse_args returned."""
    spaces = _namespaces(tree)
    if not spaces:
        return {}
    consts = _module_constants(tree)
    found: dict[str, list[Assign]] = {}
    for node in walk(tree):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        t = node.targets[0]
        if not (isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id in spaces):
            continue
        if isinstance(node.value, ast.Attribute) and isinstance(node.value.value, ast.Name) and node.value.value.id in spaces:
            continue  # `args.model = args.model_path`: a rename of an own option (argv_entry.renames)
        found.setdefault(t.attr, []).append(_value(node.value, consts))
    out = {}
    for attr, got in found.items():
        if len({(a.resolved, repr(a.value)) for a in got}) == 1:
            out[attr] = got[-1]
        else:  # set differently on different paths: which one runs is not read
            out[attr] = Assign(None, False, got[-1].line, got[-1].raw)
    return out


def _namespaces(tree: ast.Module) -> set[str]:
    """Names bound to what a parser's parse_args()/parse_known_args() returns."""
    out = set()
    for node in walk(tree):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1 or not isinstance(node.value, ast.Call):
            continue
        f = node.value.func
        if not (isinstance(f, ast.Attribute) and f.attr in _PARSE):
            continue
        t = node.targets[0]
        if isinstance(t, ast.Name):
            out.add(t.id)
        elif isinstance(t, ast.Tuple) and t.elts and isinstance(t.elts[0], ast.Name):
            out.add(t.elts[0].id)  # args, unknown = parser.parse_known_args()
    return out


def _module_constants(tree: ast.Module) -> dict[str, object]:
    """Module-level names bound exactly once, to a literal."""
    seen: dict[str, list] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                seen.setdefault(node.targets[0].id, []).append(ast.literal_eval(node.value))
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                seen.setdefault(node.targets[0].id, []).append(_UNSET)
    return {k: v[0] for k, v in seen.items() if len(v) == 1 and v[0] is not _UNSET}


_UNSET = object()


def _value(node: ast.expr, consts: dict[str, object]) -> Assign:
    raw = ast.unparse(node)[:120]
    try:
        return Assign(ast.literal_eval(node), True, node.lineno, raw)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        pass
    if isinstance(node, ast.Name) and node.id in consts:
        return Assign(consts[node.id], True, node.lineno, raw)
    return Assign(None, False, node.lineno, raw)
