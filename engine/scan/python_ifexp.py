"""A list chosen by a condition inside an argv the flow follows (engine/scan/python_flow.py):
`head = [binary] + (["serve"] if binary == "vllm" else [])`."""
from __future__ import annotations

import ast
from dataclasses import replace


def chosen(flow, node: ast.IfExp, hops: int):
    """`[binary] + (["serve"] if binary == "vllm" else [])` (vllm-warden local_subprocess.py,
    eval75): a list chosen by a condition. The branch the condition picks; where it holds only
    by a default or by what the callers pass, that branch with the assumption on its items;
    where it cannot be read, each branch's items as uncertain (left out and reported)."""
    a, b = flow._container(node.body, hops + 1), flow._container(node.orelse, hops + 1)
    lists = type(a)  # python_flow.TrackedList (not imported: python_flow imports this module)
    if not (lists.__name__ == "TrackedList" and isinstance(b, lists)):
        return None
    t = flow.r.truth(node.test)
    if t is not None:
        return a if t else b
    saved = flow.r.assumed
    flow.r.assumed = None
    try:
        v = bool(flow.r.value(node.test))
        why = flow.r.assumed
    except Exception:  # noqa: BLE001 — python_values.Unresolved, or comparing unrelated types
        v, why = None, None
    finally:
        flow.r.assumed = saved
    if v is not None and why:
        chosen = a if v else b
        return lists([replace(i, assumed=i.assumed or why) for i in chosen.items], chosen.unknown)
    test = ast.unparse(node.test)
    return lists([replace(i, uncertain=i.uncertain or f"only when `{test}`") for i in a.items]
                 + [replace(i, uncertain=i.uncertain or f"only when not `{test}`") for i in b.items], a.unknown + b.unknown)

