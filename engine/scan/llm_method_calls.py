"""The methods a project calls on its own `LLM(...)` object: `self.llm = LLM(model=name, …)` then
`self.llm.set_tokenizer(tokenizer=self.tokenizer)` (bigcodebench/provider/vllm.py:44-45,
https://github.com/bigcode-project/bigcodebench 47eff25a). Read statically from the site's own file: the
name or attribute the LLM call is assigned to, as written (`self.llm`, `llm`), and every call of a
method on that same spelling in the file. Another object of that spelling in another function of the
file is read as the same one, which errs toward the call (a P1 only, engine/check/llm_methods.py)."""
from __future__ import annotations

import ast
from dataclasses import dataclass


@dataclass(frozen=True)
class MethodCall:
    method: str
    receiver: str  # as written: `self.llm`
    line: int


def _is_llm(call: ast.AST | None) -> bool:
    if not isinstance(call, ast.Call):
        return False
    f = call.func
    return (isinstance(f, ast.Name) and f.id == "LLM") or (isinstance(f, ast.Attribute) and f.attr == "LLM")


def calls(tree: ast.AST, site_line: int, methods: frozenset[str]) -> list[MethodCall]:
    """The calls of `methods` on what the LLM(...) call at `site_line` is assigned to."""
    receiver = None
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and _is_llm(node.value) \
                and node.value is not None and node.value.lineno <= site_line <= (node.value.end_lineno or node.value.lineno):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if len(targets) == 1 and isinstance(targets[0], (ast.Name, ast.Attribute)):
                receiver = ast.unparse(targets[0])
            break
    if receiver is None:
        return []
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in methods \
                and ast.unparse(node.func.value) == receiver:
            out.append(MethodCall(node.func.attr, receiver, node.lineno))
    return sorted(out, key=lambda c: c.line)
