"""Where a removed option's value goes (knowledge/vllm/renames.yaml `carry`), and whether dropping it is
a safe fix. An option vLLM ignored anyway (swap_space under V1) can go; one whose value changes what the
model computes (`changes_output`: rope_scaling stretches the context, qlora_adapter_name_or_path loads the
adapter) cannot: the launch would start and silently run another model. Such a removal is safe only where
the value moves to its successor (opencompass's `*_128k.py` configs: rope_scaling → hf_overrides, exactly
what vLLM 0.11.0's own deprecation warning proposed, vllm/config/model.py:398-404)."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.kb.knowledge import FixOp


def carry(rename: dict, value: Any, cat: Any, version: str, taken: frozenset[str] = frozenset()) -> list:
    """Move an old option's value to the argument that replaced it, when that one exists in the
    release and the site does not set it already (writing it would replace what the site has)."""
    if not rename.get("carry") or value is None:
        return []
    head, _, key = rename["carry"].partition(".")
    e = cat.arg(head)
    if e is None or not e.exists(version) or head in taken:
        return []
    return [(FixOp("set", head), {key: value} if key else value)]


def safe_removal(rename: dict | None, fix: list) -> bool:
    """False where the option changes what runs and its value reaches no successor in `fix`."""
    if not rename or not rename.get("changes_output"):
        return True
    return any(op.kind == "set" for op, _ in fix)
