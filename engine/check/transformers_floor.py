"""A transformers change L125 proposes against the model's own floor.

L125 keeps transformers below a release (a name the vLLM release imports is gone from it:
`tf_gone_fix`, `<5`) or back inside the release's requirement (`tf_range_fix`, `==4.57.6`). The
checkpoint's model_type has its own floor where vLLM reads its config through transformers
(knowledge/vllm/model_types.yaml `transformers_first`, check L52: Gemma 4's gemma4 from 5.5.0): a
change below it trades one refusal for another ("Transformers does not recognize this
architecture"). Here such a change is moved inside both ranges where a release fits (the lowest
release at or past the floor that vLLM's requirement accepts, the least move from the project's
pin), else dropped, with the floor named (`tf_floor_type`, `tf_floor_since`) and the first vLLM
release a pip installation reads the model type with (`tf_floor_vllm_fix`), which L125 then offers.
The other transformers changes raise it (L52, L91, L135, `tf_yet_fix`, `tf_call_fix`) or cap it
where no floor reaches (`tf_layer_fix` <5.15 for Gemma 4's 5.5-5.10 types:
tests/test_transformers_floor.py holds that).
"""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.check.transformers_fit import _allows_from, _model_type_since, first_pip_release
from vllm_kb.engine.kb.versions import InvalidSpecifier, SpecifierSet, parse, try_parse


def floor_clash(facts: dict, launch: dict, table: dict, scanned: list[str]) -> dict[str, Any]:
    """The launch facts to update where a transformers change lies below the model type's floor."""
    got = _model_type_since(facts, table)
    if got is None:
        return {}
    model_type, since, later = got
    out: dict[str, Any] = {}
    fix = launch.get("tf_range_fix")
    if isinstance(fix, str) and not _allows_from(fix, since, later):
        inside = _inside(str(launch.get("tf_range_requires") or ""), since, scanned)
        out["tf_range_fix"] = f"=={inside}" if inside else None
    fix = launch.get("tf_gone_fix")
    if isinstance(fix, str) and not _allows_from(fix, since, later):
        out["tf_gone_fix"] = None  # a release past the floor still lacks the name: no transformers serves both
    if None in out.values():
        out.update(tf_floor_type=model_type, tf_floor_since=since)
        first = first_pip_release(model_type, str((facts.get("vllm") or {}).get("version") or ""), table)
        if first:
            out.update(tf_floor_vllm_first=first, tf_floor_vllm_fix=f">={first}")
    return out


def _inside(requires: str, since: str, scanned: list[str]) -> str | None:
    """The lowest read transformers release at or past `since` that vLLM's requirement accepts."""
    try:
        theirs = SpecifierSet(requires)
    except InvalidSpecifier:
        return None
    floor = parse(since)
    ok = [v for v in scanned if (pv := try_parse(v)) is not None and pv >= floor and theirs.contains(v)]
    return min(ok, key=parse) if ok else None


def apply_floor(facts: dict, table: dict, scanned: list[str]) -> None:
    """floor_clash applied to the site's launch facts in place: a dropped change leaves the fact out."""
    launch = facts.setdefault("launch", {})
    for key, value in floor_clash(facts, launch, table, scanned).items():
        if value is None:
            launch.pop(key, None)
        else:
            launch[key] = value

