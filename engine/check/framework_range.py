"""A framework pinned to a range of releases (`trl>=0.14.0`, `trl[vllm]<0.17.0`; site.framework_range, set
by engine/scan/framework_unplaced.py) runs whichever release pip resolved: the newest the range allows on a
fresh install, an older one in an environment made earlier. The framework's own findings
(knowledge/frameworks/<id>.yaml › findings) and the keys its parser refuses (engine/check/framework_args.py)
are judged at every release the pin allows, as engine/check/unpinned.py settle_range does for a vLLM range:
a P0 only where each of them fails, a P1 that names the releases where only some do, nothing where none
does. The releases are those the knowledge knows (kb/compat.releases); where the project also pins vLLM and
installs the framework with an extra that requires vLLM (`trl[vllm]`), only those whose declared range
holds that vLLM, as pip's resolver would pick: with no version of its own (`trl[vllm]`), those are the range.
Other packages' requirements on the framework (ms-swift 3.10.2's trl<0.25) narrow it further in pip, not here,
so a fresh install's release is said as the newest of them, at P1."""
from __future__ import annotations

import dataclasses
import re

from vllm_kb.engine.check import framework_args
from vllm_kb.engine.kb import compat
from vllm_kb.engine.kb.messages import msg
from vllm_kb.engine.kb.versions import InvalidSpecifier, SpecifierSet, parse, try_parse
from vllm_kb.engine.scan.site import Setting
from vllm_kb.engine.scan.framework_site import engine_device

_LITERAL = re.compile(r'"(\d+(?:\.\d+)+)"')


def releases(site, vllm_version: str | None = None) -> list[str]:
    """The known releases the site's framework pin allows, oldest first; [] where the pin is no range.
    `vllm_version`: the project's pinned vLLM, which the framework's vllm extra must accept."""
    if not site.framework_range or site.framework in (None, "none"):
        return []
    try:
        spec = SpecifierSet(site.framework_spec or ">=0")
    except InvalidSpecifier:
        return []
    allowed = [r for r in compat.releases(site.framework) if try_parse(r) is not None and spec.contains(r)]
    if vllm_version and try_parse(vllm_version) is not None:
        extras = set(re.findall(r"[\w.-]+", (re.search(r"\[([^\]]*)\]", site.framework_range or "") or ["", ""])[1]))
        beside = [r for r in allowed if compat.installs_beside(site.framework, r, vllm_version, extras)]
        # none: pip cannot resolve the pair at all (L43 says so); a `trl[vllm]` of no version: nothing narrows
        # it but the vLLM pin (without one, the newest release is the one judged, as for a framework not pinned)
        allowed = beside or (allowed if site.framework_spec else [])
    elif not site.framework_spec:
        return []
    return allowed


def _regions(span: list[str], literals: set[str]) -> dict[str, list[str]]:
    """The span cut at every release a condition compares with: one release stands for each stretch,
    where every `version_ge(framework.version, "x")` reads the same."""
    cuts = sorted({parse(x) for x in literals if try_parse(x) is not None})
    out: dict[str, list[str]] = {}
    seen: dict[tuple, str] = {}
    for r in span:
        v = parse(r)
        key = tuple(v >= c for c in cuts) + tuple(v == c for c in cuts)
        rep = seen.setdefault(key, r)
        out.setdefault(rep, []).append(r)
    return out


def findings(fw, site, command, vllm_version: str, pinned: bool, **kw) -> list[tuple[dict, str, dict | None]]:
    """(finding, the release its text names, the range note or None) for the framework's own pitfalls.
    A finding that holds at only some of the releases the pin allows comes back at P1 at most."""
    span = releases(site, vllm_version if pinned else None)
    version = site.framework_version
    if len(span) < 2:
        return [(f, version or "", None) for f in fw.findings(site.framework_keys, version, command, vllm_version, **kw)]
    raw = fw.raw.get("findings", [])
    regions = _regions(span, {x for f in raw for w in (f["when"], f.get("unsure_when") or "") for x in _LITERAL.findall(w)})
    held: dict[tuple, list] = {}  # (code, when) → [(release, finding)]
    for rep, members in regions.items():
        for f in fw.findings(site.framework_keys, rep, command, vllm_version, **kw):
            held.setdefault((f["code"], f["when"]), []).extend((r, f) for r in members)
    out: list[tuple[dict, str, dict | None]] = []
    for got in held.values():
        holds = [r for r, _ in got]
        f = got[-1][1]
        if len(holds) == len(span):
            out.append((f, version or got[-1][0], None))
            continue
        if _unversioned(site, span, holds):
            continue
        if f["priority"] == "P0":
            f = dict(f, priority="P1", fix=[])
        out.append((f, got[-1][0], note(fw.name, site, span, holds, vllm_version if pinned else None)))
    return out


def refusals(site, vllm_version: str, pinned: bool) -> list[tuple[framework_args.Refusal, str, dict | None]]:
    """(framework_args.Refusal, the release it is judged at, the range note or None): a key the parser of every
    release the pin allows refuses, or of only some (then with the note)."""
    span = releases(site, vllm_version if pinned else None)
    if len(span) < 2:
        return [(r, site.framework_version or "", None) for r in framework_args.refusals(site)]
    got: dict[str, list[tuple[str, framework_args.Refusal]]] = {}
    for release in span:
        for r in framework_args.refusals(site, release):
            got.setdefault(r.written, []).append((release, r))
    out: list[tuple[framework_args.Refusal, str, dict | None]] = []
    for pairs in got.values():
        holds = [v for v, _ in pairs]
        release, r = pairs[-1]
        if len(holds) < len(span) and _unversioned(site, span, holds):
            continue
        # the releases that refuse ride with the note: catalog_findings says several such keys once, over all of them
        out.append((r, release, None if len(holds) == len(span) else
                    dict(note(None, site, span, holds, vllm_version if pinned else None), holds=holds)))
    return out


def _unversioned(site, span: list[str], holds: list[str]) -> bool:
    """A pin of no version (`trl[vllm]`) is judged at the newest release beside the vLLM pin, as a framework
    not pinned is at the newest: what only older releases do is not said (a range's own floor is the project's
    word that an older release may be installed; no version is no such word)."""
    return not site.framework_spec and span[-1] not in holds


def note(name: str | None, site, span: list[str], holds: list[str], vllm: str | None) -> dict:
    """What the pin allows, where the finding holds, and what a fresh install does."""
    from vllm_kb.engine.kb import frameworks

    name = name or frameworks.get(site.framework).name
    where = runs(span, holds)
    which = msg("finding.fw_range_newest" if span[-1] in holds else "finding.fw_range_older", last=span[-1], holds=where)
    beside = msg("finding.fw_range_beside", vllm=vllm) if vllm and span != releases(site) else {"en": "", "zh": ""}
    return {lang: msg("finding.fw_range", framework=name, pin=site.framework_range, first=span[0], last=span[-1], beside=beside[lang],
                      holds=where, which=which[lang])[lang] for lang in ("en", "zh")}


def runs(span: list[str], holds: list[str]) -> str:
    """`0.14.0–0.17.1, 0.29.0`: the stretches of the span the finding holds in."""
    inside = set(holds)
    out: list[list[str]] = []
    for i, r in enumerate(span):
        if r in inside:
            if out and i and span[i - 1] in inside:
                out[-1][1] = r
            else:
                out.append([r, r])
    return ", ".join(a if a == b else f"{a}–{b}" for a, b in out)



def at_newest(site, vllm_version: str, pinned: bool, refuses=None):
    """The site as the newest release its range pin allows (of those that take the pinned vLLM) would run it, where that release passes other
    defaults for the engine arguments the site leaves to the framework (TRL's vllm_gpu_memory_utilization 0.9
    before 0.18.0, 0.3 from it): a check's P0 that does not hold with them too is not certain
    (engine/check/site_release.py settles it as a build between releases). None where nothing differs. `refuses(release)`: whether
    that release stops beside the pinned vLLM (framework_compat.refuses), so that a fresh install cannot be it."""
    from vllm_kb.engine.kb import frameworks

    span = releases(site, vllm_version if pinned else None)
    if pinned and refuses is not None:  # a release that refuses this vLLM (`refuses(release)`, L43) is not the one that runs
        span = [r for r in span if not refuses(r)] or span
    command = site.framework_command or ("vllm-serve" if site.kind == "trl vllm-serve" else None)
    if len(span) < 2 or not site.framework_version or command == "vllm-serve" or site.framework_version == span[-1]:
        return None
    fw = frameworks.get(site.framework)
    then, now = fw.defaults(site.framework_version, command), fw.defaults(span[-1], command)
    changed = {a: v for a, v in now.items() if a in site.framework_defaults and then.get(a) != v}
    # where the engine runs may differ too: TRL before 0.18 builds it on the GPU after the training processes
    # (vllm_device "auto"), from 0.18 on inside them (vllm_mode colocate) or in a server
    rule_then, rule_now = fw.mode_rule(site.framework_keys, site.framework_version, command), fw.mode_rule(site.framework_keys, span[-1], command)
    moved = rule_now is not None and rule_then is not None and rule_now is not rule_then and rule_now["mode"] != "none"
    if not changed and not moved:
        return None
    launch = dict(site.launch)
    if "framework_gpu_share" in launch and isinstance(now.get("gpu_memory_utilization"), (int, float)):
        launch["framework_gpu_share"] = float(now["gpu_memory_utilization"])
    mode, elsewhere = site.mode, site.engine_elsewhere
    if moved and rule_now is not None:
        launch = {k: v for k, v in launch.items() if not k.startswith("engine_device")}
        if rule_now.get("device"):
            launch.update(engine_device(rule_now["device"], site.framework_keys), engine_device_by=f"{fw.name} {span[-1]}")
        mode, elsewhere = rule_now["mode"], bool(rule_now.get("client"))
    return dataclasses.replace(site, framework_defaults={**site.framework_defaults, **changed}, framework_version=span[-1],
                               launch=launch, mode=mode, engine_elsewhere=elsewhere)


def derived_elsewhere(site, vllm_version: str, pinned: bool, refuses=None):
    """(the site as another release of its framework would build it, those releases and what they derive), or None.
    Where the project leaves the framework's release open (no pin, a pin of no version, a range) beside a
    pinned vLLM, the releases that run with that vLLM may derive different engine arguments from the same
    keys (knowledge › implies: TRL 0.18–0.25's colocate LLM(max_model_len=max_prompt_length +
    max_completion_length), 0.26's vllm_max_model_length, None → the model's own): a check's P0 that rests
    on one derivation only is not certain. Without a vLLM pin the newest of each is judged, as before.
    `refuses(release)`: whether that release stops beside the pinned vLLM, so that it is not the one that runs."""
    from vllm_kb.engine.kb import frameworks

    if site.framework in (None, "none") or site.framework_unplaced or not pinned or try_parse(vllm_version) is None:
        return None
    if site.framework_version and not site.framework_range:
        return None  # one release, pinned
    fw = frameworks.get(site.framework)
    if not fw.raw.get("implies"):
        return None
    # a pin with a version or the vllm extra: the releases pip can put beside this vLLM; none (a plain `trl`, or
    # no pin): those that declare or check a range that holds it — a project that pins vLLM and not the framework
    # runs one of its day, not whichever release pip would bring today
    span = releases(site, vllm_version) if site.framework_range else compat.supporting(site.framework, vllm_version)
    if refuses is not None:
        span = [r for r in span if not refuses(r)] or span
    command = site.framework_command
    judged = _derived(fw, site, site.framework_version)
    own = {a for a, s in site.settings.items() if a not in judged or not s.implied}
    then = {a: v for a, (_, v) in judged.items() if a not in own}
    differ: dict[str, dict] = {}
    for r in span:
        now = {a: v for a, (_, v) in _derived(fw, site, r).items() if a not in own}
        if now != then:
            differ[r] = now
    if not differ:
        return None
    other = list(differ)[-1]  # the newest that differs: the likeliest of them to be installed
    written = {k.key: s for name, s in site.framework_written.items() if (k := fw.key(name)) is not None}
    settings = {a: s for a, s in site.settings.items() if a in own}
    base = fw.defaults(other, command)
    defaults = {a: v for a, v in site.framework_defaults.items() if a not in then}
    defaults.update({a: base[a] for a in then if a in base and a not in settings})
    for a, (rule, v) in _derived(fw, site, other).items():
        if a in own:
            continue
        src = [written[k] for k in rule["from"] if k in written]
        if not src:
            defaults[a] = v
            continue
        first = src[0]
        settings[a] = Setting(a, v, True, first.file, first.line, first.key, first.raw, first.syntax, implied=True,
                              note=f"{fw.name} {other}: implied by " + " + ".join(f"{k}={site.framework_keys.get(k)!r}" for k in rule["from"]))
        defaults.pop(a, None)
    said = ", ".join(f"{a}={v!r}" for a, v in sorted(differ[other].items())) or ", ".join(f"{a} unset" for a in sorted(then))
    # only what it derives changes: the release itself stays the one judged, so that checks of other facts stand as they are
    return (dataclasses.replace(site, settings=settings, framework_defaults=defaults),
            f"{runs(span, list(differ))} ({said})")


def _derived(fw, site, release: str | None) -> dict:
    """The engine arguments the release derives from the site's keys (knowledge › implies), by argument:
    (rule, value); none from a key written with a value the audit cannot read."""
    values = site.framework_keys
    unread = {k.key for name, s in site.framework_written.items() if (k := fw.key(name)) is not None and not s.resolved}
    return {rule["arg"]: (rule, value) for rule, value in fw.implied(values, release, site.framework_command)
            if not any(k in unread for k in rule["from"])}
