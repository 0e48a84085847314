"""`GRPOConfig(**grpo_kwargs)` where the project builds `grpo_kwargs` as a dict in the same function
(a literal, then `grpo_kwargs["use_vllm"] = True`, `.update({...})`): TRL's keys read entry by entry,
each where it is written (engine/scan/python_flow.py follows the statements before the call).

`use_vllm = True` set under a condition the scanner cannot decide (`if config.use_vllm:`) is still the
launch: that branch is the only way the trainer starts vLLM, and what the same branch sets holds with it
(eval70 KG_GRPO, src/training/train_grpo.py). A key set under any other undecided condition is kept
unresolved, the condition as its note."""
from __future__ import annotations

import ast

from vllm_kb.engine.scan.framework_site import Entry
from vllm_kb.engine.scan.python_flow import Flow, TrackedDict
from vllm_kb.engine.scan.python_settings import setting
from vllm_kb.engine.scan.site import Setting

_SWITCH = "use_vllm"


def spread_entries(resolver, node: ast.expr, rel: str, text: str) -> list[Entry] | None:
    """The entries of `**node` in a TRL config call; None when the mapping is not one the flow follows."""
    flow = resolver.flow if getattr(resolver, "flow", None) is not None else Flow([], resolver)
    try:
        tracked = flow._container(node)
    except RecursionError:
        return None
    if not isinstance(tracked, TrackedDict) or not tracked.items:
        return None
    switch = tracked.items.get(_SWITCH)
    # what the branch that turns vLLM on sets holds whenever vLLM runs: as certain as the launch itself
    on = switch.uncertain if switch is not None and isinstance(switch.node, ast.Constant) and switch.node.value is True else None
    out = []
    for key, it in tracked.items.items():
        if it.node is None:
            s = Setting(key, None, False, rel, node.lineno, key, "", "python-call", "set at run time")
        else:
            s = setting(resolver, key, it.node, rel, text, key, it.span)
            if it.uncertain and it.uncertain != on:
                s.value, s.resolved, s.note = None, False, it.uncertain
        out.append(Entry(key, s))
    return out
