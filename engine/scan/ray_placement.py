"""The Ray placement group an engine is built in: a Ray actor or task scheduled with
`PlacementGroupSchedulingStrategy(placement_group=pg)` (or `.options(placement_group=pg)`) that
builds a vLLM engine of world size > 1 runs it on Ray (vLLM picks the Ray executor when
`ray.util.get_current_placement_group()` is set, vllm/config.py ParallelConfig), and vLLM's
ray_utils then takes that group as it is: one GPU per bundle, one bundle per worker. The GPU
bundles written in the file (`placement_group([{"GPU": 1, "CPU": 4}] * 2)`) become launch facts
(knowledge/checks/L.yaml, gpu-count)."""
from __future__ import annotations

import ast

from vllm_kb.engine.scan.python_scope import dotted


def _bundles(node) -> list | None:
    """The bundle dicts of a literal list (`[{…}, {…}]`, `[{…}] * 2`), None when not literal."""
    if isinstance(node, ast.List):
        out = []
        for e in node.elts:
            if not isinstance(e, ast.Dict):
                return None
            out.append({k.value: v.value for k, v in zip(e.keys, e.values)
                        if isinstance(k, ast.Constant) and isinstance(v, ast.Constant)})
        return out
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        for lst, n in ((node.left, node.right), (node.right, node.left)):
            inner = _bundles(lst)
            if inner is not None and isinstance(n, ast.Constant) and isinstance(n.value, int) and 0 < n.value <= 4096:
                return inner * n.value
    return None


def _groups(tree: ast.Module) -> dict[str, list]:
    """`pg = placement_group(bundles, …)`: name → bundles (literal ones only)."""
    out: dict[str, list] = {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Call)):
            continue
        if dotted(node.value.func).rsplit(".", 1)[-1] != "placement_group":
            continue
        arg = node.value.args[0] if node.value.args else next(
            (k.value for k in node.value.keywords if k.arg == "bundles"), None)
        got = _bundles(arg) if arg is not None else None
        if got is not None:
            out[node.targets[0].id] = got
    return out


def _scheduled(tree: ast.Module, groups: dict[str, list]) -> dict[str, str]:
    """Remote classes/functions started in a known group: `X.options(scheduling_strategy=
    PlacementGroupSchedulingStrategy(placement_group=pg))` or `X.options(placement_group=pg)` → {X: pg}."""
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "options"
                and isinstance(node.func.value, ast.Name)):
            continue
        for kw in node.keywords:
            ref: ast.expr | None = kw.value
            if kw.arg == "scheduling_strategy" and isinstance(ref, ast.Call) \
                    and dotted(ref.func).rsplit(".", 1)[-1] == "PlacementGroupSchedulingStrategy":
                ref = ref.args[0] if ref.args else next((k.value for k in ref.keywords if k.arg == "placement_group"), None)
            elif kw.arg != "placement_group":
                continue
            if isinstance(ref, ast.Name) and ref.id in groups:
                out[node.func.value.id] = ref.id
    return out


def facts(tree: ast.Module, f, launch: dict) -> None:
    """`placement_gpus` (GPU bundles) and `placement_bundle_gpus` (the most GPUs one bundle asks
    for) of the group the site's actor or task runs in, when the file says so literally."""
    text_names = [getattr(fn, "name", None) for fn in (getattr(f, "fns", None) or [])]
    if getattr(f, "cls", None) is not None:
        text_names.append(f.cls.name)
    names = {n for n in text_names if n}
    if not names:
        return
    groups = _groups(tree)
    if not groups:
        return
    pg = next((g for n, g in _scheduled(tree, groups).items() if n in names), None)
    if pg is None:
        return
    gpus = [b.get("GPU", 0) for b in groups[pg]]
    gpus = [g for g in gpus if isinstance(g, (int, float)) and not isinstance(g, bool)]
    launch["placement_gpus"] = sum(1 for g in gpus if g)
    launch["placement_bundle_gpus"] = max(gpus, default=0)
