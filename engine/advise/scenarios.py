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

import json
import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from vllm_kb.engine.kb import catalog as catalog_mod
from vllm_kb.engine.kb import cel, resources, yamlio
from vllm_kb.engine.check import memory
from vllm_kb.engine.kb.errors import KnowledgeError, Problem, UsageError
from vllm_kb.engine.check.evaluate import _lookup, placeholders
from vllm_kb.engine.check.evaluate import render as fill
from vllm_kb.engine.kb.knowledge import Knowledge, Text
from vllm_kb.engine.scan.site import Setting, Site
from vllm_kb.engine.kb.versions import SpecifierSet

FILE = "knowledge/scenarios.yaml"
# What `plan` holds (CEL and placeholders may read only these).
PLAN_FIELDS = ("tp", "pp", "dp", "gpus", "sized", "fits", "kv_tokens", "max_concurrency", "max_model_len",
               "weights_per_gpu_gib", "kv_cache_gib")
PARALLEL_ARGS = ("tensor_parallel_size", "pipeline_parallel_size", "data_parallel_size")
TARGETS = ("cli", "python", "yaml", "framework", "trainer", "trl_serve")
DEFAULT_RENDER = {"cli": ["cli"], "python": ["python"], "yaml": ["yaml_file", "yaml_command"],
                  "framework": ["framework"], "trainer": ["trainer"], "trl_serve": ["trl_serve"]}
KEYWORD_SCORE = 2  # a description (MCP) that names a scenario's keyword


# --- the knowledge ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Condition:
    when: str
    why: Text
    score: int = 0


@dataclass(frozen=True)
class Item:
    """An engine argument or env var a scenario sets."""

    name: str
    value: Any = None
    value_from: str | None = None
    when: str | None = None
    vllm: SpecifierSet | None = None
    env: bool = False

    def predicates(self) -> list[str]:
        return [p for p in (self.when, self.value_from) if p]


@dataclass
class Scenario:
    id: str
    name: str
    title: Text
    description: Text
    seed: str
    modes: tuple[str, ...]
    vllm: SpecifierSet
    parallel: str
    score: int
    requires: list[Condition]
    prefers: list[Condition]
    args: list[Item]
    env: list[Item]
    framework_keys: dict[str, list[dict]]
    render: dict[str, list[str]]
    notes: list[tuple[str | None, Text]]
    corrections: list[Text]
    sources: list[dict]
    cases: list[dict]
    keywords: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    index: int = 0

    @property
    def keys(self) -> tuple[str, ...]:
        return (self.id, self.name, *self.aliases)

    def templates_for(self, target: str, framework: str) -> list[str]:
        return self.render.get(f"{target}.{framework}") or self.render.get(target) or DEFAULT_RENDER[target]


def _item(raw: dict, env: bool = False) -> Item:
    return Item(name=raw["env" if env else "arg"], value=raw.get("value"), value_from=raw.get("value_from"),
                when=raw.get("when"), vllm=SpecifierSet(raw["vllm"]) if raw.get("vllm") else None, env=env)


def _cond(raw: dict) -> Condition:
    return Condition(raw["when"], Text.of(raw["why"]), int(raw.get("score", 0)))


def _scenario(raw: dict, index: int) -> Scenario:
    return Scenario(
        id=raw["id"], name=raw["name"], title=Text.of(raw["title"]), description=Text.of(raw["description"]),
        seed=raw.get("seed", ""), modes=tuple(raw["modes"]), vllm=SpecifierSet(raw["vllm"]), parallel=raw["parallel"],
        score=int(raw.get("score", 0)), requires=[_cond(c) for c in raw.get("requires", [])],
        prefers=[_cond(c) for c in raw.get("prefers", [])], args=[_item(a) for a in raw.get("args", [])],
        env=[_item(e, env=True) for e in raw.get("env", [])], framework_keys=dict(raw.get("framework_keys") or {}),
        render=dict(raw.get("render") or {}), notes=[(n.get("when"), Text.of(n["text"])) for n in raw.get("notes", [])],
        corrections=[Text.of(c) for c in raw.get("corrections", [])], sources=list(raw.get("sources", [])),
        cases=list(raw.get("cases", [])), keywords=tuple(raw.get("keywords", ())), aliases=tuple(raw.get("aliases", ())),
        index=index)


class Scenarios:
    """The scenarios in knowledge order, by id, kebab name or alias; duplicates fail at load."""

    def __init__(self, scenarios: list[Scenario], templates: dict[str, dict]):
        self._list = scenarios
        self.templates = templates
        self._by_key: dict[str, Scenario] = {}
        problems = []
        for s in scenarios:
            for key in s.keys:
                other = self._by_key.get(key.lower())
                if other is not None and other is not s:
                    problems.append(Problem(FILE, s.id, "", f"duplicate id or name {key!r} (also {other.id})"))
                self._by_key[key.lower()] = s
        if problems:
            raise KnowledgeError(problems)

    def __iter__(self):
        return iter(self._list)

    def __len__(self) -> int:
        return len(self._list)

    def get(self, key: str) -> Scenario:
        s = self._by_key.get(key.strip().lower())
        if s is None:
            raise UsageError(f"no such scenario: {key!r} (scenarios: {', '.join(x.id for x in self._list)})")
        return s


def parse(data: dict) -> Scenarios:
    return Scenarios([_scenario(r, i) for i, r in enumerate(data["scenarios"])], dict(data["templates"]))


@lru_cache(maxsize=1)
def load() -> Scenarios:
    try:
        doc = yamlio.load_cached(resources.read_text("knowledge", "scenarios.yaml"))
    except yamlio.YamlError as e:
        raise KnowledgeError([Problem(f"{FILE}:{e.line}" if e.line else FILE, "", "", str(e))]) from None
    return parse(doc.data)


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
    from vllm_kb.engine.check.facts import effective_defaults

    cat = catalog_mod.load()
    base = {k: v for k, v in cat.defaults(version).items() if v is not None}
    base.update(effective_defaults(kb, facts, version))
    base.update(site.framework_defaults)
    base.update(site.fixed)
    return Context(facts, version, base, site, target_for(site), _model_text(site), description.lower())


def site_context(sr, kb: Knowledge) -> Context:
    """The context of an audited site (engine.audit.SiteReport)."""
    return make_context(sr.site, sr.facts, sr.lookup_version, kb)


_KIND = {("none", "cli"): "vllm serve", ("none", "yaml-config"): "vllm serve", ("none", "python-call"): "LLM()",
         ("trl", "python-call"): "GRPOConfig()", ("verl", "hydra-override"): "verl main_ppo",
         ("openrlhf", "cli"): "openrlhf train_ppo_ray", ("llamafactory", "cli"): "llamafactory-cli train",
         ("ms-swift", "cli"): "swift rlhf"}
_SYNTAX = {"none": "cli", "trl": "python-call", "verl": "hydra-override", "openrlhf": "cli", "llamafactory": "cli",
           "ms-swift": "cli"}


def context_for(*, model: str, gpu: str, mode: str, vllm_version: str | None = None, framework: str = "none",
                syntax: str | None = None, args: dict | None = None, description: str = "",
                kb: Knowledge | None = None) -> Context:
    """A site that is only described (MCP, a scenario's own cases): built as a scanner would
    build it, then given the same facts as an audited site."""
    from vllm_kb.engine.kb import frameworks
    from vllm_kb.engine.audit import resolve_hardware
    from vllm_kb.engine.check.facts import site_facts
    from vllm_kb.engine.kb.knowledge import load as load_kb

    kb = kb or load_kb()
    cat = catalog_mod.load()
    version = vllm_version or cat.newest
    fw = framework or "none"
    if syntax is None:
        syntax = "python-call" if fw == "none" and mode == "standalone_offline" else _SYNTAX[fw]
    kind = _KIND.get((fw, syntax)) or ("trl vllm-serve" if fw == "trl" else f"{fw} {syntax}")
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
    hw = resolve_hardware(kb, gpu)
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
        return [fill(w(lang), _values(w, self.values)) for w in self.why]


def _values(text: Text, data: dict) -> dict:
    return {p: _lookup(data, p) for p in placeholders(text.en + " " + text.zh)}


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
    est = memory.estimate(model, gpu, eng, vllm_version=ctx.version, env=facts.get("env")) if model.get("params_b") and gpu.get("memory_gib") else {}
    min_tp = est.get("min_tp")
    out: dict[str, Any] = {"sized": bool(est.get("weights_per_gpu_gib") is not None)}
    if min_tp is None:
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
        final = memory.estimate(model, gpu, dict(eng, tensor_parallel_size=tp, pipeline_parallel_size=pp),
                                vllm_version=ctx.version, env=facts.get("env"))
        for k in ("fits", "kv_tokens", "max_concurrency", "max_model_len", "weights_per_gpu_gib", "kv_cache_gib"):
            if final.get(k) is not None:
                out[k] = final[k]
    return out


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
                args.setdefault(item.name, v)
    p = plan(scn, ctx, args)
    values = dict(facts, plan=p)
    act = cel.Activation(values)
    for item in late:
        ok, v = _resolve(item, act, version)
        if ok:
            args.setdefault(item.name, v)
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


# --- rendering -------------------------------------------------------------------------------

@dataclass
class Block:
    label: str
    lang: str
    text: str


@dataclass
class Rendered:
    blocks: list[Block]
    notes: list[str]
    blocked: list[str]  # settings the site's framework does not let you write
    by_framework: list[str]  # settings the framework already makes
    differences: list[dict]  # {name, current, scenario}


_VAR = re.compile(r"^\$\{?[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\}?$")


def _shell(v: Any) -> str:
    from vllm_kb.engine.fix.changes import shell_word

    if isinstance(v, str) and _VAR.match(v):
        return f'"{v}"'
    return shell_word(v)


def _py(v: Any) -> str:
    from vllm_kb.engine.fix.changes import py_literal

    return py_literal(v)


def _yaml(v: Any) -> str:
    from vllm_kb.engine.fix.changes import yaml_scalar

    if isinstance(v, (dict, list)):
        # a JSON string: vLLM's --config reader nests mappings only in recent releases
        return "'" + json.dumps(v, ensure_ascii=False, separators=(", ", ": ")) + "'"
    return yaml_scalar(v)


@lru_cache(maxsize=1)
def _jinja():
    import jinja2

    env = jinja2.Environment(autoescape=False, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=False,
                             undefined=jinja2.StrictUndefined)
    env.filters.update(shell=_shell, py=_py, yaml=_yaml)
    return env


@lru_cache(maxsize=256)
def _template(text: str):
    """A template compiled once per process, not once per site."""
    return _jinja().from_string(text)


def _cli(flag: str, value: Any) -> str | None:
    if isinstance(value, bool):
        return flag if value else None
    return f"{flag} {_shell(value)}"


def render_args(args: list[tuple[str, Any]], version: str) -> list[dict]:
    """Each argument as every syntax writes it in this release."""
    cat = catalog_mod.load()
    out = []
    for name, value in args:
        e = cat.arg(name)
        if e is None or not e.exists(version):
            continue
        flag = cat.long_flag(name, version)
        out.append({"name": name, "value": value, "flag": flag, "cli": _cli(flag, value) if flag else None,
                    "key": flag[2:] if flag else None, "py": _py(value), "yaml": _yaml(value),
                    "engine": cat.is_engine_arg(name)})
    return out


def _fw_lang(syntax: str) -> str:
    return {"python-call": "python", "yaml-config": "yaml", "framework-config": "yaml"}.get(syntax, "bash")


def _framework_lines(m: Match, ctx: Context, lang: str) -> tuple[list[str], list[str], list[str]]:
    """The scenario's settings as the site's framework writes them: lines, blocked, by-framework."""
    from vllm_kb.engine.kb import frameworks
    from vllm_kb.engine.fix import syntax as site_syntax

    site = ctx.site
    fw = frameworks.get(site.framework)
    lines, blocked, done = [], [], []
    replaced = set()
    # the server itself takes no client keys unless a trainer block is rendered beside it
    server_only = not site.engine_elsewhere and "trainer" not in m.scenario.templates_for(ctx.target, fw.id)
    for fk in m.scenario.framework_keys.get(fw.id, []):
        if fk.get("client") and server_only:
            continue
        k = fw.key(fk["key"])
        replaced.add(fk.get("replaces"))
        if not (frameworks.version_matches(fk.get("versions"), site.framework_version)
                and frameworks.version_matches(k.versions if k else None, site.framework_version)):
            continue  # this release of the framework does not have the key
        text = site_syntax.framework_text(site, site_syntax._spelling(site, fw, k) if k else fk["key"], fk["value"], None, site.syntax)
        if text:
            lines.append(text)
    merged: dict[str, Any] = {}
    pt_key = (fw.passthrough or {}).get("key")
    user_args = ctx.facts.get("args", {})
    # a trainer that talks to a rollout server (or TRL's server itself) takes no engine arguments
    client = site.engine_elsewhere or (fw.id == "trl" and site.mode == "rlhf_server")
    for name, value in ([] if client else m.args):
        if name in replaced:
            continue
        if (site.fixed.get(name) == value) or (name not in user_args and site.framework_defaults.get(name) == value):
            done.append(f"{name}={json.dumps(value)}")
            continue
        got = None if name in site.fixed else site_syntax.framework_key(site, name, value)
        if got is None:
            blocked.append(name)
            continue
        key, v = got
        if key == pt_key and isinstance(v, dict):
            merged.update(v)
            continue
        text = site_syntax.framework_text(site, key, v, None, site.syntax)
        if text:
            lines.append(text)
    if merged:
        lines.append(site_syntax.framework_text(site, pt_key, merged, None, site.syntax))
    return lines, blocked, done


def _serve_args(rargs: list[dict]) -> list[dict]:
    """What `trl vllm-serve` accepts among the settings (its ScriptArguments, knowledge/frameworks/trl.yaml)."""
    from vllm_kb.engine.kb import frameworks

    accepted = set(frameworks.get("trl").raw["serve"]["args"])
    out = []
    for a in rargs:
        if a["name"] in accepted:
            flag = "--" + a["name"].replace("_", "-")
            out.append(dict(a, flag=flag, cli=_cli(flag, a["value"])))
    return [a for a in out if a["cli"]]


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) and not isinstance(b, bool):
        return float(a) == float(b)
    return a == b


def render(m: Match, ctx: Context, lang: str = "en", target: str | None = None,
           templates: dict | None = None) -> Rendered:
    from vllm_kb.engine.kb import frameworks

    target = target or ctx.target
    site = ctx.site
    rargs = render_args(m.args, ctx.version)
    env = [{"name": n, "value": v} for n, v in m.env]
    fw_name = frameworks.get(site.framework).name if site.framework != "none" else "vLLM"
    lines, blocked, done = ([], [], [])
    if site.framework != "none":
        lines, blocked, done = _framework_lines(m, ctx, lang)
    config_class = site.kind[:-2] if site.kind.endswith("Config()") else "GRPOConfig"
    data = {"model": ctx.model, "args": rargs, "env": env, "fw": lines, "serve_args": _serve_args(rargs),
            "config_class": config_class, "config_file": site.config_file or "serve.yaml", "version": ctx.version,
            "plan": m.plan}
    templates = templates if templates is not None else load().templates
    blocks = []
    for name in m.scenario.templates_for(target, site.framework):
        tpl = templates.get(name)
        if tpl is None:  # kb validate names it
            continue
        text = _template(tpl["text"]).render(**data).strip("\n")
        if not text.strip():
            continue
        label = Text.of(tpl["label"])(lang).format(config_file=data["config_file"], framework=fw_name)
        blocks.append(Block(label, tpl["lang"].replace("{fw_lang}", _fw_lang(site.syntax)), text))
    notes = []
    act = cel.Activation(m.values)
    for when, text in m.scenario.notes:
        if when is None or cel.compile(when).evaluate(act).value is True:
            notes.append(fill(text(lang), _values(text, m.values)))
    if not m.plan.get("sized"):
        from vllm_kb.engine.kb.knowledge import load as load_kb

        notes.append(load_kb().t("scenario.unsized", lang))
    engine, env_now = ctx.facts.get("engine", {}), ctx.facts.get("env", {})
    diffs = [{"name": n, "current": engine.get(n), "scenario": v} for n, v in m.args
             if not _same(engine.get(n), v) and n not in blocked]
    diffs += [{"name": n, "current": env_now.get(n), "scenario": v} for n, v in m.env if env_now.get(n) != v]
    return Rendered(blocks, notes, blocked, done, diffs)


# --- the report ------------------------------------------------------------------------------

def for_site(sr, kb: Knowledge, lang: str) -> dict | None:
    """The report's `scenario` object for an audited site: the best match rendered in the
    site's syntax, with what it changes and the runners-up; None when no scenario applies."""
    ctx = site_context(sr, kb)
    found = match(ctx)
    if not found:
        return None
    return report_object(found[0], ctx, lang, found[1:3])


def report_object(m: Match, ctx: Context, lang: str, others: list[Match] = ()) -> dict:
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


# --- a workload described in words (MCP match_scenario) --------------------------------------

_MODE_WORDS = (
    ("rlhf_server", r"server mode|rollout server|vllm-serve|server 模式|独立推理|独立 gpu"),
    ("rlhf_colocate", r"colocate|hybrid engine|共卡|grpo|ppo|rlhf|\brl\b|dapo|rloo"),
    ("standalone_offline", r"offline|batch|离线|批处理|\bllm\(\)"),
)
_FRAMEWORK_WORDS = (("trl", r"\btrl\b"), ("verl", r"\bverl\b"), ("openrlhf", r"openrlhf"),
                    ("llamafactory", r"llama-?factory"), ("ms-swift", r"ms-swift|\bswift\b"))
_HF_ID = re.compile(r"\b[\w.-]+/[\w.-]+\b")
_TOKEN = re.compile(r"(?i)\b[a-z][\w.]*-[\w.-]*[\w]")
_VERSION = re.compile(r"(?i)vllm\s*(?:==|v|version)?\s*(\d+\.\d+(?:\.\d+)?)")


def read_description(text: str, kb: Knowledge) -> dict[str, str]:
    """What a description says about the model, GPUs, mode, framework, syntax and vLLM release;
    only what it names (a caller's explicit arguments win over these)."""
    from vllm_kb.engine.kb.models import model_facts

    out: dict[str, str] = {}
    low = text.lower()
    for cand in _HF_ID.findall(text) + _TOKEN.findall(text):
        if "/" in cand or model_facts(cand, kb.models, []).get("params_b"):
            out["model"] = cand
            break
    gpu = _gpu_in(text, kb)
    if gpu:
        out["gpu"] = gpu
    for mode, rx in _MODE_WORDS:
        if re.search(rx, low):
            out["mode"] = mode
            break
    for fid, rx in _FRAMEWORK_WORDS:
        if re.search(rx, low):
            out["framework"] = fid
            out.setdefault("mode", "rlhf_colocate" if fid != "llamafactory" else "standalone_serve")
            break
    v = _VERSION.search(text)
    if v:
        out["vllm_version"] = v.group(1) if v.group(1).count(".") == 2 else v.group(1) + ".0"
    if re.search(r"--config|\byaml\b", low):
        out["syntax"] = "yaml-config"
    elif re.search(r"\bpython\b|\bllm\(", low):
        out["syntax"] = "python-call"
    return out


def _gpu_in(text: str, kb: Knowledge) -> str | None:
    """The GPU a text names, longest name first, with a count written next to it (8xH100,
    H100 x8, 4 × A100-80GB, RTX 4090)."""
    best = None
    for g in kb.gpus:
        for name in {str(n) for n in (g["id"], *g.get("aliases", ()))}:
            parts = re.findall(r"[A-Za-z]+|\d+", name)
            rx = r"(?:(?<=\d[x×*])|(?<![\w]))" + r"[-_ ]?".join(re.escape(p) for p in parts) + r"(?![\w])"
            m = re.search(rx, text, re.I)
            if m and (best is None or len(m.group(0)) > len(best[1].group(0))):
                best = (g, m)
    if best is None:
        return None
    g, m = best
    before = re.search(r"(\d+)\s*(?:[x×*]|卡|张|\s+GPUs?)\s*$", text[:m.start()], re.I)
    after = re.match(r"\s*(?:[x×*:]\s*(\d+)|\s*(?:GPUs?|cards?|卡)?)", text[m.end():], re.I)
    count = before.group(1) if before else (after.group(1) if after and after.group(1) else None)
    return f"{g['id']} x{count}" if count else g["id"]
