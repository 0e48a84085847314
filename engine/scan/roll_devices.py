"""Whether a ROLL vLLM role shares its GPUs with another worker. ROLL's WorkerConfig evaluates
`device_mapping` as a Python expression (`list(range(0,16))`, `"[0, 1]"`,
`list(range(0,2))+list(range(14,16))`; roll/configs/worker_config.py __post_init__ `eval`) and
calls actor_infer colocated when its devices meet actor_train's, reference's or critic's
(worker_config.py is_actor_infer_overlapping_with_any_cluster, which vllm_strategy.py reads
before it offloads). The expression is read with ast only, never run: a literal list, `range`
with literal bounds, `list(…)` and `+`; anything else is unknown, and an unknown mapping leaves
the role colocated, as before.

Every other role with GPUs counts here (a vLLM reward judge on the trainer's GPUs holds memory the
trainer needs too), so a role is apart only when each role's mapping is read and none meets its own."""
from __future__ import annotations

import ast

_MAX = 1 << 16  # more GPUs than any cluster holds: a range past it is no device list


def devices(value) -> frozenset[int] | None:
    """The GPU ranks a device_mapping value names, or None when it cannot be read."""
    if isinstance(value, list):
        return frozenset(value) if all(isinstance(v, int) and not isinstance(v, bool) for v in value) else None
    if not isinstance(value, str):
        return None
    try:
        node = ast.parse(value.strip(), mode="eval").body
    except (SyntaxError, ValueError):
        return None
    got = _read(node)
    return frozenset(got) if got is not None else None


def _read(node: ast.expr) -> list[int] | None:
    if isinstance(node, (ast.List, ast.Tuple)):
        out = [e.value for e in node.elts if isinstance(e, ast.Constant) and type(e.value) is int]
        return out if len(out) == len(node.elts) else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _read(node.left), _read(node.right)
        return left + right if left is not None and right is not None else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        if node.func.id == "list" and len(node.args) == 1:
            return _read(node.args[0])
        if node.func.id == "range" and 1 <= len(node.args) <= 3:
            bounds = [a.value for a in node.args if isinstance(a, ast.Constant) and type(a.value) is int]
            if len(bounds) != len(node.args) or (len(bounds) == 3 and bounds[2] == 0):
                return None
            r = range(*bounds)
            return list(r) if len(r) <= _MAX else None
    return None


def apart(mappings: dict[str, object], role: str) -> str | None:
    """`mappings`: each role's device_mapping as written (role path → value). Where `role`'s GPUs
    meet no other role's, the words that say so; None when they meet one, or any mapping is unread."""
    own = devices(mappings.get(role))
    if not own:
        return None
    others = {r: devices(v) for r, v in mappings.items() if r != role and v is not None}
    if not others or any(d is None for d in others.values()):
        return None
    if any(own & d for d in others.values() if d is not None):
        return None
    rest = ", ".join(f"{r} {_span(d)}" for r, d in sorted(others.items()) if d is not None)
    return f"{role} runs on GPUs {_span(own)}, which no other role's device_mapping names ({rest})"


def _span(ranks: frozenset[int]) -> str:
    if not ranks:
        return "none"
    lo, hi = min(ranks), max(ranks)
    return f"{lo}-{hi}" if len(ranks) == hi - lo + 1 and hi > lo else ",".join(str(r) for r in sorted(ranks))
