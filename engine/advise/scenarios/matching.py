"""Which scenario fits a site: its context (site, facts, target syntax, release), each
scenario's conditions as CEL over the facts and the parallel layout the memory estimator
computes (`plan`), and the values it would set."""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

from vllm_kb.engine.advise.scenarios.model import (
    KEYWORD_SCORE,
    PARALLEL_ARGS,
    Item,
    Scenario,
    Scenarios,
    load,
)
from vllm_kb.engine.check import memory
from vllm_kb.engine.kb import catalog as catalog_mod
from vllm_kb.engine.kb import cel
from vllm_kb.engine.kb.knowledge import Knowledge, Text
from vllm_kb.engine.kb.messages import lookup, placeholders
from vllm_kb.engine.kb.messages import render as fill
from vllm_kb.engine.scan.python_prefilter import TARGETS
from vllm_kb.engine.scan.site import Setting, Site

# --- the site seen by a scenario -------------------------------------------------------------

@dataclass
class Context:
    facts: dict
    version: str  # the catalog release names are looked up in
    base_engine: dict  # what the scenario's settings overlay: defaults, effective defaults, framework
    site: Site
    target: str
    model: str
    description: str = ""  # words from the caller (MCP), matched against keywords
    # what the site's own recommended checks and findings change (engine/fix plan): a scenario
    # never proposes another value for those, nor sets what they remove — one report, one advice
    advised: dict = field(default_factory=dict)
    removed: frozenset = frozenset()
    # memory estimates of this site's layouts, by the scenario settings they overlay (`plan`)
    estimates: dict = field(default_factory=dict, repr=False, compare=False)


def target_for(site: Site) -> str:
    if site.framework == "trl":
        if site.kind == "trl vllm-serve":
            return "trl_serve"
        return "trainer" if site.syntax == "python-call" else "framework"
    if site.framework != "none":
        return "framework"
    if site.config_file:
        return "yaml"
    return "python" if site.syntax == "python-call" else "cli"


def _model_text(site: Site) -> str:
    m = site.model
    if m is None:
        return "<model>"
    if m.resolved and m.value:
        return str(m.value)
    return m.raw or "<model>"


def make_context(site: Site, facts: dict, version: str, kb: Knowledge, description: str = "") -> Context:
    from vllm_kb.engine.check.engine_defaults import effective_defaults

    cat = catalog_mod.load()
    base = {k: v for k, v in cat.defaults(version).items() if v is not None}
    base.update(effective_defaults(kb, facts, version))
    base.update(site.framework_defaults)
    base.update(site.fixed)
    return Context(facts, version, base, site, target_for(site), _model_text(site), description.lower())


def site_context(sr, kb: Knowledge) -> Context:
    """The context of an audited site (engine.audit.SiteReport), with what its changes set."""
    ctx = make_context(sr.site, sr.facts, sr.lookup_version, kb)
    for ch in sr.changes:
        # a value read from another file (.env, an image's ENV) is still changed, only there
        if ch.blocked and ch.blocked != "from_env" or ch.op in ("env", "unset_env", "rename") or "," in ch.target:
            continue
        if ch.op == "unset":
            ctx.removed = ctx.removed | {ch.target}
        elif ch.op == "set" and not isinstance(ch.value, dict):
            ctx.advised[ch.target] = ch.value
    return ctx


# vLLM's own launches as the scanners name them (a framework's is its knowledge file's `described_kind`)
_VLLM_KIND = {"python-call": TARGETS["LLM"][0], "cli": "vllm serve", "yaml-config": "vllm serve"}


def described_kind(framework: str, syntax: str) -> str:
    """The site kind of a launch only described: vLLM's own, or the framework's usual entry point where
    it is written in the framework's own syntax (knowledge/frameworks/<id>.yaml `described_kind`)."""
    from vllm_kb.engine.kb import frameworks

    if framework == "none":
        return _VLLM_KIND.get(syntax) or f"none {syntax}"
    raw = frameworks.get(framework).raw
    if syntax == raw.get("syntax") and raw.get("described_kind"):
        return str(raw["described_kind"])
    return "trl vllm-serve" if framework == "trl" else f"{framework} {syntax}"


def context_for(*, model: str, gpu: str, mode: str, vllm_version: str | None = None, framework: str = "none",
                syntax: str | None = None, args: dict | None = None, description: str = "",
                kb: Knowledge | None = None) -> Context:
    """A site that is only described (MCP, a scenario's own cases): built as a scanner would
    build it, then given the same facts as an audited site."""
    from vllm_kb.engine.check.facts import site_facts
    from vllm_kb.engine.kb import frameworks
    from vllm_kb.engine.kb.machine import resolve as resolve_hardware
    from vllm_kb.engine.kb.knowledge import load as load_kb

    kb = kb or load_kb()
    cat = catalog_mod.load()
    version = vllm_version or cat.newest
    fw = framework or "none"
    if syntax is None:
        # a framework's own (its knowledge file's `syntax`): every framework the registry lists has one
        syntax = ("python-call" if mode == "standalone_offline" else "cli") if fw == "none" else frameworks.get(fw).raw["syntax"]
    kind = described_kind(fw, syntax)
    if fw == "trl" and syntax == "cli":
        kind = "trl vllm-serve" if mode == "rlhf_server" else "trl grpo"
    if fw == "ms-swift" and mode == "rlhf_server":
        kind = "swift rollout"
    config_file = None
    if syntax == "yaml-config" and fw == "none":
        syntax, config_file = "cli", "serve.yaml"
    settings = {n: Setting(n, v, True, "", 0, n, json.dumps(v), syntax) for n, v in (args or {}).items()}
    site = Site(file="<described>", line=0, syntax=syntax, kind=kind, mode=mode, mode_evidence="", framework=fw,
                settings=settings, model=Setting("model", model, True, "", 0, "model", model, syntax), config_file=config_file)
    if fw != "none":
        f = frameworks.get(fw)
        site.framework_defaults = {k: v for k, v in f.defaults(None).items() if k not in settings}
        site.fixed = f.fixed(mode)
        site.engine_elsewhere = mode == "rlhf_server" and kind not in ("trl vllm-serve", "swift rollout") and fw in ("trl", "ms-swift")
    hw = resolve_hardware(kb.gpus, gpu)
    facts = site_facts(site, hw, version, True, kb, cat)
    return make_context(site, facts, cat.resolve(version).version, kb, description)


# --- matching --------------------------------------------------------------------------------

@dataclass
class Match:
    scenario: Scenario
    score: int
    status: str  # match | partial (a requirement could not be decided)
    why: list[Text]
    missing: list[str]
    plan: dict
    args: list[tuple[str, Any]]
    env: list[tuple[str, str]]
    values: dict = field(default_factory=dict, repr=False)  # facts ⊕ plan, for placeholders

    def why_text(self, lang: str) -> list[str]:
        return [fill(w(lang), values_for(w, self.values)) for w in self.why]


def values_for(text: Text, data: dict) -> dict:
    return {p: lookup(data, p) for p in placeholders(text.en + " " + text.zh)}


def _resolve(item: Item, act: cel.Activation, version: str) -> tuple[bool, Any]:
    if item.vllm and not item.vllm.contains(version):
        return False, None
    if item.when and cel.compile(item.when).evaluate(act).value is not True:
        return False, None
    value = item.value
    if item.value_from:
        got, unknown = cel.compile(item.value_from).compute(act)
        value = item.value if unknown is not None else got
    return value is not None, value


def _reads(source: str, group: str) -> bool:
    return any(p[0] == group for p in cel.compile(source).paths)


def _reads_plan(item: Item) -> bool:
    return any(_reads(src, "plan") for src in item.predicates())


def plan(scn: Scenario, ctx: Context, args: dict[str, Any]) -> dict[str, Any]:
    """The parallel layout for the scenario's own settings: the smallest power-of-two TP that
    fits with room for KV cache (PP across nodes when one node is too small), replicas on the
    GPUs left unless the scenario runs one replica. Without the model's size: the site's own."""
    facts = ctx.facts
    gpu, model = facts.get("gpu") or {}, facts.get("model") or {}
    count = int(gpu["count"]) if gpu.get("count") else None
    eng = dict(ctx.base_engine)
    eng.update({k: v for k, v in args.items() if k not in PARALLEL_ARGS})
    eng.update(tensor_parallel_size=1, pipeline_parallel_size=1)
    own = repr(sorted((k, v) for k, v in args.items() if k not in PARALLEL_ARGS))
    est = _estimate(ctx, own, eng, 1, 1) if model.get("params_b") and gpu.get("memory_gib") else {}
    min_tp = est.get("min_tp")
    out: dict[str, Any] = {"sized": bool(est.get("weights_per_gpu_gib") is not None)}
    layout = {k: ctx.advised[k] for k in PARALLEL_ARGS if k in ctx.advised}
    if layout:  # the site's checks already size the layout: the scenario keeps theirs
        user = memory.numeric_args(dict(facts.get("engine", {}), **layout))
        tp, pp, dp = (int(user.get(k) or 1) for k in PARALLEL_ARGS)
    elif min_tp is None:
        user = memory.numeric_args(facts.get("engine", {}))  # "$TP", "x": the default
        tp, pp, dp = (int(user.get(k) or 1) for k in PARALLEL_ARGS)
        if out["sized"]:  # known, but no TP up to 64 fits
            out["fits"] = False
    else:
        if count is None or min_tp <= count:
            tp, pp = min_tp, 1
        else:
            tp = 2 ** int(math.log2(count))
            pp = math.ceil(min_tp / tp)
        dp = max(1, count // (tp * pp)) if count and scn.parallel != "single" else 1
    out.update(tp=tp, pp=pp, dp=dp, gpus=tp * pp * dp)
    if min_tp is not None:
        final = _estimate(ctx, own, eng, tp, pp)
        for k in ("fits", "kv_tokens", "max_concurrency", "max_model_len", "weights_per_gpu_gib", "kv_cache_gib"):
            if final.get(k) is not None:
                out[k] = final[k]
    return out


def _estimate(ctx: Context, own: str, eng: dict, tp: int, pp: int) -> dict:
    """memory.estimate of the site's model and GPUs with `eng` at that layout, once per site for
    each set of scenario settings (`own`, what `eng` adds to the site's base engine): the
    scenarios of a site share most of their layouts (vLLM's own tree: 2,759 estimates, 1,061
    distinct). The estimates are read, never changed."""
    key = (own, tp, pp)
    hit = ctx.estimates.get(key)
    if hit is None:
        facts = ctx.facts
        hit = ctx.estimates[key] = memory.estimate(facts.get("model") or {}, facts.get("gpu") or {},
                                                   dict(eng, tensor_parallel_size=tp, pipeline_parallel_size=pp),
                                                   vllm_version=ctx.version, env=facts.get("env"))
    return hit


def evaluate(scn: Scenario, ctx: Context) -> Match | None:
    """The scenario at this site, or None when it does not apply."""
    facts = ctx.facts
    version = str(facts.get("vllm", {}).get("version") or ctx.version)
    if facts.get("site", {}).get("mode") not in scn.modes or not scn.vllm.contains(version):
        return None
    if facts.get("site", {}).get("pooling"):
        return None  # every scenario is about generation; a pooling model keeps no KV cache
    act = cel.Activation(facts)
    args: dict[str, Any] = {}
    late = [a for a in scn.args if _reads_plan(a)]
    for item in scn.args:
        if item not in late:
            ok, v = _resolve(item, act, version)
            if ok:
                args.setdefault(item.name, ctx.advised.get(item.name, v))
    p = plan(scn, ctx, args)
    values = dict(facts, plan=p)
    act = cel.Activation(values)
    for item in late:
        ok, v = _resolve(item, act, version)
        if ok:
            args.setdefault(item.name, ctx.advised.get(item.name, v))
    for name in ctx.removed:
        args.pop(name, None)
    ordered = [(a.name, args[a.name]) for a in scn.args if a.name in args]
    ordered = list(dict(ordered).items())
    env = []
    for item in scn.env:
        ok, v = _resolve(item, act, version)
        if ok:
            env.append((item.name, str(v)))
    score, why, missing = scn.score, [], []
    for c in scn.requires:
        out = cel.compile(c.when).evaluate(act)
        if not p["sized"] and _reads(c.when, "plan"):
            # the layout is the site's own, not computed: a requirement on it cannot be decided
            out = cel.Outcome(None, missing=("model.params_b",) if not facts.get("model", {}).get("params_b") else ("gpu.memory_gib",))
        if out.value is False:
            return None
        if out.value is None:
            missing += list(out.missing) or [out.error or c.when]
        else:
            why.append(c.why)
    for c in scn.prefers:
        if (p["sized"] or not _reads(c.when, "plan")) and cel.compile(c.when).evaluate(act).value is True:
            score += c.score
            why.append(c.why)
    hits = [k for k in scn.keywords if ctx.description and re.search(r"(?<![\w-])" + re.escape(k.lower()) + r"(?![\w-])", ctx.description)]
    if hits:
        score += KEYWORD_SCORE
        why.append(Text(en=f"The description mentions {', '.join(hits)}.", zh=f"描述中提到了 {'、'.join(hits)}。"))
    return Match(scn, score, "partial" if missing else "match", why, sorted(set(missing)), p, ordered, env, values)


def match(ctx: Context, scenarios: Scenarios | None = None) -> list[Match]:
    """Every scenario that applies, best first (full matches before partial ones)."""
    got = [m for s in (scenarios or load()) if (m := evaluate(s, ctx)) is not None]
    return sorted(got, key=lambda m: (m.status != "match", -m.score, m.scenario.index))
