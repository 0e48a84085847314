"""A change at an evaluation harness's vLLM site written as the harness takes it: a `key=value`
pair of lm_eval's `--model_args pretrained=…,max_model_len=…` or lighteval's model-argument list
(its own key names: `max_model_length`), never as a vLLM `--flag` the harness would refuse. Both
split the list on every comma (lm_eval utils.simple_parse_args_string, lighteval's own split), so a
dict or list value cannot be written there; lighteval passes vLLM only the keys its VLLMModelConfig
names (knowledge/deploy/llm_wrappers.yaml)."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.kb import deploy_tools
from vllm_kb.engine.scan.site import Setting, Site

TOOLS = ("lm_eval", "lighteval")
# lm_eval's own names for engine arguments (lm_eval_launch._RENAMED, the other way round)
_LM_EVAL = {"max_num_seqs": "max_batch_size"}


def _keys(site: Site) -> dict[str, str] | None:
    """Engine argument → the harness's key; None where every engine argument passes under its own name."""
    if site.tool == "lighteval":
        entry = next(w for w in deploy_tools.load("llm_wrappers")["forwarders"] if w["module"] == "lighteval")
        return {engine: own for own, engine in entry["args"].items() if own not in ("pretrained",)}
    return None


def _literal(value: Any) -> str:
    if isinstance(value, bool):
        return "True" if value else "False"
    return str(value)


def text(site: Site, op: str, target: str, value: Any, existing: Setting | None) -> tuple[str | None, str | None, str | None]:
    """(before, after, blocked) of the change: the pair as written and the pair to write (None for a
    removal), or why it cannot be written in the harness's arguments."""
    keys = _keys(site)
    key = (keys or {}).get(target) if keys is not None else _LM_EVAL.get(target, target)
    before = None
    if existing is not None and not existing.implied and (existing.raw or existing.key.startswith("-")):  # a harness default: no text
        written = existing.key.lstrip("-").split("=", 1)[0]
        raw = existing.raw.split("=", 1)[1] if existing.raw.startswith("-") and "=" in existing.raw else existing.raw
        shown = raw if raw and not raw.startswith("-") else _literal(existing.value)
        before = f"{(keys or {}).get(written, written) if keys is not None else _LM_EVAL.get(written, written)}={shown}"
        key = key or written
    if op == "unset":
        return before, None, None
    if key is None or isinstance(value, (dict, list)):
        return before, None, "not_exposed"
    pair = f"{key}={_literal(value)}"
    # a new pair goes at the end of the list the command already has
    return before, pair if before is not None else ("--model_args …," + pair if site.tool == "lm_eval" else "…," + pair), None
