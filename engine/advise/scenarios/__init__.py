"""Scenario templates (knowledge/scenarios.yaml): which recommended configuration fits a site,
and that configuration written for the site's own model, GPUs, vLLM release and syntax.

    ctx = site_context(site_report) | context_for(model=…, gpu=…, mode=…)
    matches = match(ctx)            # best first: Match(scenario, score, why, plan, args, env)
    out = render(matches[0], ctx)   # Rendered(blocks=[Block(label, lang, text)], notes, differences)

A scenario applies when its modes and vLLM range include the site and every `requires`
condition holds; its score adds the `prefers` that hold. `plan` is the parallel layout the memory
estimator gives for the scenario's own settings (TP that fits with room for KV cache, replicas
on the GPUs left). Flags are spelled per release with the catalog; `kb validate` (lint) checks
every argument, flag and env var a scenario can render against the releases it claims."""
from __future__ import annotations

from collections.abc import Sequence

from vllm_kb.engine.advise.scenarios.matching import (
    Context,
    Match,
    context_for,
    make_context,
    match,
    site_context,
)
from vllm_kb.engine.advise.scenarios.model import (
    FILE,
    PLAN_FIELDS,
    Item,
    Scenario,
    Scenarios,
    load,
    parse,
)
from vllm_kb.engine.advise.scenarios.rendering import render, render_args
from vllm_kb.engine.advise.scenarios.words import read_description
from vllm_kb.engine.kb.knowledge import Knowledge

__all__ = ["FILE", "PLAN_FIELDS", "Context", "Item", "Match", "Scenario", "Scenarios", "context_for", "for_site", "load",
           "make_context", "match", "parse", "read_description", "render", "render_args", "report_object"]




def for_site(sr, kb: Knowledge, lang: str) -> dict | None:
    """The report's `scenario` object for an audited site: the best match rendered in the
    site's syntax, with what it changes and the runners-up; None when no scenario applies."""
    ctx = site_context(sr, kb)
    found = match(ctx)
    if not found:
        return None
    return report_object(found[0], ctx, lang, found[1:3])


def report_object(m: Match, ctx: Context, lang: str, others: Sequence[Match] = ()) -> dict:
    r = render(m, ctx, lang)
    s = m.scenario
    return {
        "id": s.id, "name": s.name, "title": s.title(lang), "description": s.description(lang),
        "score": m.score, "status": m.status, "why": m.why_text(lang), "missing": m.missing,
        "plan": m.plan, "target": ctx.target, "settings": [{"name": n, "value": v} for n, v in m.args],
        "env": [{"name": n, "value": v} for n, v in m.env],
        "blocks": [{"label": b.label, "lang": b.lang, "text": b.text} for b in r.blocks],
        "notes": r.notes, "blocked": r.blocked, "by_framework": r.by_framework, "differences": r.differences,
        "alternatives": [{"id": o.scenario.id, "name": o.scenario.name, "title": o.scenario.title(lang), "score": o.score}
                         for o in others],
    }
