"""The order vLLM meets the launch checks while it starts (knowledge/vllm/raise_order.yaml): a
site's P0s are listed in it, so the first one a report shows is the error the user will see."""
from __future__ import annotations

from functools import lru_cache

from vllm_kb.engine.kb.knowledge import Knowledge
from vllm_kb.engine.kb.versions import SpecifierSet, try_parse

LAST = 100_000
_SPAN = 100  # positions within one stage; a check moved into a stage sorts after the stage's own list


@lru_cache(maxsize=8)
def _table(kb: Knowledge) -> tuple[dict[str, int], dict[str, int], tuple]:
    data = kb.doc("vllm", "raise_order.yaml").data
    index = {s["id"]: i for i, s in enumerate(data["stages"])}
    # within a stage the list is in the order vLLM meets the checks (a stage's own functions run one
    # check after another), so a report's first P0 of a stage is the one the user sees
    stage = {c: index[s["id"]] * _SPAN + pos for s in data["stages"] for pos, c in enumerate(s["checks"])}
    moves = tuple((m["check"], SpecifierSet(m["vllm"]), index[m["stage"]] * _SPAN + _SPAN - 1) for m in data["moves"])
    return stage, index, moves


def stage_of(kb: Knowledge, check: str, version: str | None) -> int:
    """Where a check or finding code sorts in `version`: its stage, then its place in the stage
    (LAST when vLLM does not say)."""
    stage, _, moves = _table(kb)
    v = try_parse(version) if version else None
    if v is not None:
        for cid, spec, idx in moves:
            if cid == check and spec.contains(str(v)):
                return idx
    return stage.get(check, LAST)
