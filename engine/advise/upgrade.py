"""What moving one site from its vLLM release to another changes, from the same facts the audit
uses: the site's checks and catalog findings at both releases, and the catalogs.

- breaks: what the site passes that the target release refuses (a removed option, value or
  variable: findings and P0 verdicts at the target that the current release does not have);
- renamed: those of them that have a replacement (knowledge/vllm/renames.yaml);
- defaults: arguments the site leaves unset whose start-up value changes (declared, context and
  effective defaults), old and new;
- engine: the engine and features the site runs with (V0/V1, V0 fallbacks of its settings,
  its speculative method on V1, how workers start);
- frameworks: the framework releases that go with the target (knowledge/frameworks/compat.yaml).
The mechanical part (removals and renames) is returned as fix items the fix stage writes."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from vllm_kb.engine.check.evaluate import Result
from vllm_kb.engine.check.framework_compat import engine_needed
from vllm_kb.engine.check.host_compat import host_of, pair_breaks
from vllm_kb.engine.fix.changes import Fixable
from vllm_kb.engine.kb import cel, compat
from vllm_kb.engine.kb.catalog import Catalog
from vllm_kb.engine.kb.frameworks import FRAMEWORK_IDS
from vllm_kb.engine.kb.knowledge import FixOp, Knowledge
from vllm_kb.engine.kb.versions import parse, try_parse
from vllm_kb.engine.scan.site import Finding, Site

KINDS = ("breaks", "renamed", "defaults", "engine", "frameworks")
# Catalog findings an upgrade can cause: a name or value the target release does not have.
MECHANICAL_FINDINGS = frozenset({"not-in-version", "env-not-in-version", "value-not-in-version"})


@dataclass
class Item:
    kind: str  # breaks | renamed | defaults | engine | frameworks
    subject: str
    text: dict[str, str]  # en / zh
    before: Any = None
    after: Any = None
    priority: str = "P2"
    mechanical: bool = False  # `--fix` writes it
    already: bool = False  # the current release refuses it too (broken before the upgrade)

    def to_json(self, lang: str) -> dict:
        return {"kind": self.kind, "subject": self.subject, "text": self.text[lang], "before": self.before,
                "after": self.after, "priority": self.priority, "mechanical": self.mechanical, "already": self.already}


@dataclass
class SitePlan:
    site: Site
    current: str
    target: str
    items: list[Item] = field(default_factory=list)
    fixables: list[Fixable] = field(default_factory=list)

    def of(self, kind: str) -> list[Item]:
        return [i for i in self.items if i.kind == kind]


def _t(kb: Knowledge, key: str, **kw) -> dict[str, str]:
    return {lang: kb.t(key, lang, **kw) for lang in ("en", "zh")}


def _p0(results: list[Result]) -> dict[str, Result]:
    return {r.check.id: r for r in results if r.needs_change and r.priority == "P0"}


def _removal(ops, cat: Catalog, target: str) -> bool:
    """A fix that takes out a name the target release does not have (and carries its value on)."""
    for op, _ in ops:
        if op.kind == "unset" and (e := cat.arg(op.target)) is not None and not e.exists(target):
            return True
        if op.kind == "unset_env" and (e := cat.env(op.target)) is not None and not e.exists(target):
            return True
    return False


def plan_site(site: Site, now: tuple[list[Result], list[Finding], dict], then: tuple[list[Result], list[Finding], dict],
              current: str, target: str, cat: Catalog, kb: Knowledge, host_release: str | None = None) -> SitePlan:
    """`now` / `then`: (results, findings, facts) of the site at its release and at the target;
    `host_release`: the pinned release of the serving package that starts the site, if one does."""
    res_now, fnd_now, facts_now = now
    res_then, fnd_then, facts_then = then
    out = SitePlan(site, current, target)
    p0_now, seen_now = set(_p0(res_now)), {f.id for f in fnd_now}
    for kind, subject, text, prio, fixable, already in breaks(site, res_then, fnd_then, p0_now, seen_now, cat, kb, target):
        item = Item(kind, subject, text, priority=prio, mechanical=fixable is not None, already=already)
        out.items.append(item)
        if fixable is not None:
            out.fixables.append(fixable)
    out.items += default_changes(site, facts_now, facts_then, cat, kb)
    out.items += engine_changes(site, facts_now, current, target, cat, kb)
    out.items += framework_needs(site, target, kb, host_release, facts_then)
    return out


def breaks(site: Site, res_then: list[Result], fnd_then: list[Finding], p0_now: set[str], seen_now: set[str],
           cat: Catalog, kb: Knowledge, target: str) -> list[tuple[str, str, dict, str, Fixable | None, bool]]:
    """(kind, subject, text, priority, mechanical fix or None, already broken) for what the
    target refuses: P0 verdicts, and removed names and values. A removal a check asks for (B4
    swap_space from 0.18) is that check's; the finding only where no check is. What the current
    release refuses as well is marked `already` (the fix writes it all the same)."""
    out = []
    for r in res_then:
        # a P0 verdict, or any verdict whose fix takes out a name the target does not have
        # (F2: VLLM_ATTENTION_BACKEND → --attention-backend): that removal is mechanical
        removal = r.needs_change and bool(r.fix) and _removal(r.fix, cat, target)
        if not (removal or (r.needs_change and r.priority == "P0")):
            continue
        carries = removal and any(op.kind in ("set", "env") for op, _ in r.fix)
        text = {lang: f"{r.check.id} {r.check.title(lang)}: {r.reason_text(lang)}" for lang in ("en", "zh")}
        out.append(("renamed" if carries else "breaks", r.check.id, text, r.priority or "P2",
                    Fixable(r.check.id, r.priority or "P2", True, r.fix) if removal else None, r.check.id in p0_now))
    for f in fnd_then:
        if f.code not in MECHANICAL_FINDINGS:
            continue
        name = f.subject.split("=")[0]
        rename = kb.renames.get((f.code == "env-not-in-version", name))
        # a replacement that is "none: …" is a removal with an explanation, not a rename
        renamed = bool(rename) and rename is not None and (bool(rename.get("carry")) or not rename["replacement"]["en"].startswith(("none", "nothing")))
        ops = f.fix or (_value_removal(site, name) if "=" in f.subject else [])
        out.append(("renamed" if renamed else "breaks", name if renamed else f.subject, dict(f.message), f.priority or "P2",
                    Fixable(f.id, f.priority or "P2", True, ops) if ops else None, f.id in seen_now))
    return out


def _value_removal(site: Site, path: str) -> list:
    """A value the target refuses: the setting is taken out (or, in a JSON argument, its key)."""
    head, _, key = path.partition(".")
    s = site.settings.get(head)
    if s is None:
        return []
    if key and isinstance(s.value, dict):
        return [(FixOp("set", head, {key: None}), {key: None})]
    return [(FixOp("unset", head), None)]


@lru_cache(maxsize=1)
def _watched(kb_id: int, kb: Knowledge) -> frozenset[str]:
    """Arguments whose start-up value the knowledge reads (engine.X in a check), plus the ones
    with effective or context defaults."""
    names = {d["arg"] for d in kb.effective_defaults} | {"max_num_seqs", "max_num_batched_tokens"}
    for c in kb.checks:
        for r in c.rules:
            try:
                names |= {p[1] for p in cel.compile(r.when).paths if p[0] == "engine" and len(p) > 1}
            except cel.CelSyntaxError:
                continue
    return frozenset(names)


def default_changes(site: Site, facts_now: dict, facts_then: dict, cat: Catalog, kb: Knowledge) -> list[Item]:
    args = facts_now.get("args") or {}
    old, new = facts_now.get("engine") or {}, facts_then.get("engine") or {}
    target = (facts_then.get("vllm") or {}).get("version")
    out = []
    for name in sorted(_watched(id(kb), kb)):
        if name in args or name in site.fixed or name in site.framework_defaults or name not in old or name not in new:
            continue
        e = cat.arg(name)
        if e is None or (target and not e.exists(target)):
            continue
        if old[name] != new[name] and not isinstance(new[name], (dict, list)):
            out.append(Item("defaults", name, _t(kb, "upgrade.default", name=name, old=_show(old[name]), new=_show(new[name])),
                            before=old[name], after=new[name]))
    return out


def _show(v: Any) -> str:
    return "true" if v is True else "false" if v is False else "unset" if v is None else str(v)


def engine_changes(site: Site, facts_now: dict, current: str, target: str, cat: Catalog, kb: Knowledge) -> list[Item]:
    out = []
    e_now, e_then = cat.feature("engine.default", current), cat.feature("engine.default", target)
    if e_now and e_then and e_now != e_then:
        out.append(Item("engine", "engine.default", _t(kb, "upgrade.engine_default", old=e_now.upper(), new=e_then.upper()),
                        before=e_now, after=e_then, priority="P1"))
    if cat.feature("engine.v0", current) and not cat.feature("engine.v0", target):
        out.append(Item("engine", "engine.v0", _t(kb, "upgrade.v0_gone", version=target), before=True, after=False, priority="P1"))
    args = facts_now.get("args") or {}
    fb_now = {a: f["feature"] for f in cat.feature("engine.v1_fallbacks", current) or [] for a in f["args"]}
    if cat.feature("engine.v0", current):
        for name in sorted(set(args) & set(fb_now)):
            out.append(Item("engine", f"v1_fallback:{name}", _t(kb, "upgrade.fallback_gone", name=name, feature=fb_now[name], version=target),
                            priority="P1"))
    method = (args.get("speculative_config") or {}).get("method") if isinstance(args.get("speculative_config"), dict) else None
    if method:
        had = method in (cat.feature("spec_decode.v1_methods", current) or [])
        has = method in (cat.feature("spec_decode.v1_methods", target) or [])
        if had != has:
            out.append(Item("engine", f"spec:{method}", _t(kb, "upgrade.spec_" + ("gained" if has else "lost"), method=method, version=target),
                            before=had, after=has, priority="P2" if has else "P0"))
    spawn = "multiproc.cli_spawn" if site.kind == "vllm serve" else "multiproc.api_server_spawn" if site.kind == "api_server" else None
    if spawn and cat.feature(spawn, current) != cat.feature(spawn, target) and "VLLM_WORKER_MULTIPROC_METHOD" not in site.env:
        out.append(Item("engine", spawn, _t(kb, "upgrade.spawn", version=target), before=cat.feature(spawn, current),
                        after=cat.feature(spawn, target)))
    return out


def framework_needs(site: Site, target: str, kb: Knowledge, host_release: str | None = None, facts: dict | None = None) -> list[Item]:
    """The framework release that goes with the target, for every framework the knowledge has
    (FRAMEWORK_IDS); for a site a serving package starts (FastChat, Xinference, Ray Serve LLM),
    that package's release (`host_release`, its pin) and the one that fixed its break. `facts`: the
    site's facts at the target, for breaks that need its engine (V1) there."""
    fid, fv = site.framework, site.framework_version
    if fid in (None, "none") or fid not in FRAMEWORK_IDS:
        host = host_of(site)
        return _host_needs(site, host, host_release, target, kb, facts or {}) if host and host_release and try_parse(host_release) else []
    name = fid
    code = compat.code_release(fv) if fv and try_parse(fv) else None  # 0.2.0.dev0 is the 0.2.0 line
    problems = compat.problems(fid, code, target) if code else []
    errors = [r for r in problems if (r.effect == "error" or r.kind == "declared") and (facts is None or engine_needed(r, target, facts))]
    if fv and not errors:
        return []
    ok = compat.supporting(fid, target, at_least=code)
    newest = (compat.releases(fid) or ["?"])[-1]
    why = _why(errors)
    if ok:
        text = _t(kb, "upgrade.framework_needs", framework=name, current=fv or "?", needed=ok[0], target=target, why=why or "—")
    else:
        text = _t(kb, "upgrade.framework_none", framework=name, current=fv or "?", target=target, newest=newest, why=why or "—")
    return [Item("frameworks", fid, text, before=fv, after=ok[0] if ok else None, priority="P0" if errors else "P1")]


def _why(errors: list) -> str:
    return "; ".join(f"{r.kind}: {r.raw.get('error') or ('vllm' + r.vllm if r.vllm else '')}".strip() for r in errors[:3])


def _host_needs(site: Site, host: str, rel: str, target: str, kb: Knowledge, facts: dict) -> list[Item]:
    """A serving package's release whose own code breaks with the target (compat.yaml known breaks),
    and the release that fixed every such break (`fixed_in`) when it goes with the target."""
    errors = pair_breaks(host, rel, target, site, facts)
    if not errors:
        return []
    fixed = [str(r.raw["fixed_in"]) for r in errors if r.raw.get("fixed_in")]
    cand = max(fixed, key=parse) if fixed and len(fixed) == len(errors) else None
    if cand is not None and pair_breaks(host, cand, target, site, facts):
        cand = None
    why = _why(errors)
    text = (_t(kb, "upgrade.framework_needs", framework=host, current=rel, needed=cand, target=target, why=why) if cand
            else _t(kb, "upgrade.host_none", framework=host, current=rel, target=target, why=why))
    return [Item("frameworks", host, text, before=rel, after=cand, priority="P0")]


def newer(a: str, b: str) -> bool:
    return parse(b) > parse(a)
