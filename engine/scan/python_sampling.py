"""The most new tokens a module's own requests ask of its engine: `SamplingParams(max_tokens=N)`
written in the same file as the engine. Check B2 weighs a max_model_len proposal against it: a
script that asks for `max_tokens=1024 * 31` needs the model's whole context (eval111 ROLL
vllm_generate_test.py:57), one that asks for 16 tokens gains nothing but a guard from a shorter
limit (eval113 lmms-eval videomathqa cot_postprocess.py:133). Known only when every
SamplingParams of the module writes max_tokens as a number (an expression of number literals
counts); one that leaves it out, passes `**kwargs` or a variable makes the whole module unknown."""
from __future__ import annotations

import ast
import operator

from vllm_kb.engine.scan.harness_generation import max_len_for
from vllm_kb.engine.scan.python_values import walk

_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
        ast.Pow: operator.pow}


def _number(node: ast.AST) -> int | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        left, right = _number(node.left), _number(node.right)
        if left is None or right is None or (isinstance(node.op, ast.Pow) and not 0 <= right <= 64):
            return None
        got = _OPS[type(node.op)](left, right)
        return got if isinstance(got, int) and 0 < got < 1 << 40 else None
    return None


def request_tokens(tree: ast.Module, text: str, rel: str) -> dict:
    """`request_max_tokens`, where it is written and the max_model_len B2 would propose beside it,
    or {} when the module's requests are not all bounded by a written number."""
    if text.isascii() and "SamplingParams" not in text:
        return {}
    found: list[tuple[int, int]] = []
    for n in walk(tree):
        if not (isinstance(n, ast.Call) and isinstance(n.func, (ast.Name, ast.Attribute))):
            continue
        if (n.func.id if isinstance(n.func, ast.Name) else n.func.attr) != "SamplingParams":
            continue
        kw = {k.arg: k.value for k in n.keywords}
        value = _number(kw["max_tokens"]) if "max_tokens" in kw else None
        if value is None or None in kw or n.args:
            return {}
        found.append((value, n.lineno))
    if not found:
        return {}
    most, line = max(found)
    return {"request_max_tokens": most, "request_tokens_where": f"{rel}:{line}: SamplingParams(max_tokens={most})",
            "max_len_for_requests": max_len_for(most)}
