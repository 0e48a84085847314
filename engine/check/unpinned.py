"""A vLLM image whose tag names no release (`vllm/vllm-openai:latest`, `:nightly`, a commit tag): `docker
run` starts whatever copy of that tag the host pulled last (it does not pull again), so the release is
not known. The audit judges the newest known release, but the image is only "at least" the oldest
release that has every option the launch passes (`floor`): a start-up failure that holds in only some
of those releases (a P0 rule with a `vllm:` range, a check that applies to some, an option or value
the newest release dropped) is a P1 that says which releases it needs; a P0 that holds in every one
of them stays P0. A change that holds in only some of those releases is not written by `--fix` without
`--unsafe-fixes`: renaming a value breaks the releases that lack the new name, and dropping an option
the newest release removed changes what the older ones do (`--enable-reasoning` turns the reasoning
parser on in 0.8)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from vllm_kb.engine.check.evaluate import fails_in_some_only
from vllm_kb.engine.check.lowered import lower, note
from vllm_kb.engine.check.startup_build import UNTAGGED
from vllm_kb.engine.kb.catalog import Catalog
from vllm_kb.engine.kb.knowledge import FixOp, Knowledge
from vllm_kb.engine.kb import release_dates
from vllm_kb.engine.kb.versions import InvalidSpecifier, SpecifierSet
from vllm_kb.engine.scan.cli_args import normalise_flag
from vllm_kb.engine.scan.images import image_date
from vllm_kb.engine.scan.site import Site

BASIS = UNTAGGED
RELEASE_BOUND = ("not-in-version", "value-not-in-version")  # findings that hold in some releases only


def floor(site: Site, cat: Catalog) -> str:
    """The oldest release that has every option the site passes (the newest first release among them)."""
    best = cat.versions[0]
    for name, s in site.settings.items():
        key = s.key or name
        e = (cat.flag(normalise_flag(key if key.startswith("-") else "--" + key)[0]) if s.syntax != "python-call" else None) \
            or cat.arg(name)
        first = getattr(e, "first", None)
        if first and cat.index_version(first) > cat.index_version(str(best)):
            best = cat.index_version(first)
    return str(best)


def allowed(site: Site, cat: Catalog) -> list:
    low = cat.index_version(floor(site, cat))
    return [v for v in cat.versions if v >= low]


def settle(results: list, findings: list, site: Site, cat: Catalog, kb: Knowledge, why: str = "untagged",
           newer: bool = False, span: list | None = None, checks: bool = True, fresh: bool = False) -> None:
    """P0s of an image of unknown release: kept where they hold in every release from the floor on.
    `why` names the texts that say so (untagged: an image; source: vLLM built from its sources);
    `newer`: the build may be newer than every release, so an option none has may be its own;
    `span`: the releases the build lies between, where known (a development version); `checks`
    False: only the options and values a release dropped are settled (a project that pins nothing:
    a check's release range marks where vLLM began to refuse, long before the releases run today,
    while an option a release of the last half year dropped is still in the releases most installs
    hold; one dropped longer ago is refused by all of them and stays P0 where `fresh`: nothing in the
    project, no framework pin either, holds the install back from the newest release)."""
    releases = span or allowed(site, cat)
    if not releases:
        return
    low = str(releases[0])
    # a `latest` image pulled in the last half year: a check that refuses every release of that half
    # year refuses it (`--swap-space`, gone from 0.18, on vllm/vllm-openai:latest: WillLiang713/vllm-docker,
    # eval79), as an option the catalog finds dropped as long ago does below
    held = (recent_releases(releases, cat) or releases) if fresh else releases
    for r in results if checks else ():
        if r.status != "recommended" or r.priority != "P0":
            continue
        specs = [sp for sp in ((r.rule.vllm if r.rule is not None else None), r.check.vllm) if sp is not None]
        if all(all(sp.contains(str(v)) for v in held) for sp in specs):
            continue
        spec = ",".join(dict.fromkeys(str(sp) for sp in specs))
        lower(r, "P1", note(kb, f"priority.{why}", spec=spec, floor=low))
    for f in findings:
        if fresh and f.code == "not-in-version" and _dropped_long_before(f, site, cat):
            if why in ("unpinned", "untagged") and getattr(f, "priority", None) == "P0":
                _fresh_way_out(f, site, cat, kb, image=why == "untagged")
            continue  # a fresh install refuses it, and so does every release of the last half year
        if getattr(f, "priority", None) == "P0" and (f.code in RELEASE_BOUND and _some_release_accepts(f, site, cat, releases)
                                                     or newer and f.code == "unknown-option"
                                                     or f.code not in RELEASE_BOUND and fails_in_some_only(f, releases)):
            lower(f, "P1", note(kb, f"priority.{why}_finding", floor=low))
    hold_back(results, findings, site, cat, kb, releases)


# the checks whose P0 is the memory estimate's pool left for the KV cache after the weights
_POOL_CHECKS = frozenset({"L16"})


def settle_memory(results: list, memory: dict | None, kb: Knowledge, version: str) -> None:
    """An image or build whose release is assumed: the estimate takes the non-torch memory (NCCL's NVLS and
    all-reduce workspaces with TP) and the CUDA graphs (subtracted before the cache from 0.20) as the assumed
    release sizes them, and other releases size them otherwise (V0 adds a tenth of V1's TP workspaces, a release
    before 0.20 no graphs). A pool that misses by less than those terms may be there in the release that runs:
    P1 (aibrix's Dynamo deployment on ai-dynamo-vllm-runtime:1.2.0, Qwen3-8B TP 2 at gmu 0.11: ≈2.1 GiB short
    against ≈2.7 GiB of them, census session 37)."""
    if not memory or not isinstance(memory.get("kv_cache_gib"), (int, float)):
        return
    terms = float(memory.get("non_torch_gib") or 0.0) + float(memory.get("cudagraph_gib") or 0.0)
    short = -float(memory["kv_cache_gib"])
    if not 0.0 < short < terms:
        return
    for r in results:
        if r.check.id in _POOL_CHECKS and r.status == "recommended" and r.priority == "P0":
            lower(r, "P1", note(kb, "priority.assumed_memory", version=version, short=f"{short:.1f}", terms=f"{terms:.1f}"))


# fixes that undo what only some releases refuse: dropping a removed option, variable or value
_RELEASE_FIXES = (*RELEASE_BOUND, "env-not-in-version")


def hold_back(results: list, findings: list, site: Site, cat: Catalog, kb: Knowledge, releases: list) -> None:
    """A release that is assumed, not read: a change that drops or renames what some release among
    `releases` still takes is written only with --unsafe-fixes (CharmCheen/PRL-addENV, eval105: nothing
    pinned vLLM, so 0.34.0 was judged, and --fix deleted VLLM_ENGINE_ITERATION_TIMEOUT_S, gone only in
    0.32.0, from the in-tree ms-swift of the 0.7/0.8 era that raises its 60 s default). A P0 keeps its
    safe fix: it stayed P0 because every release the install may bring refuses what the fix removes."""
    low = str(releases[0])
    for f in findings:
        if f.fix and f.safe and f.priority != "P0" and f.code in _RELEASE_FIXES and _some_release_accepts(f, site, cat, releases):
            lower(f, f.priority, note(kb, "priority.assumed_fix", floor=low))
    for r in results:
        if not (r.status == "recommended" and r.fix and r.safe and r.priority != "P0"
                and any(op.kind in ("unset", "unset_env", "rename") for op, _ in r.fix)):
            continue
        specs = [sp for sp in ((r.rule.vllm if r.rule is not None else None), r.check.vllm) if sp is not None]
        if specs and not all(sp.contains(str(v)) for sp in specs for v in releases):
            lower(r, r.priority, note(kb, "priority.assumed_fix", floor=low))


# how long before the newest release an option must have gone for a project that pins nothing to be
# judged without it: a B-check's removed option (swap_space, 0.18) is a P0 there, and so is one the
# catalog finds gone as long (--tokenizer-pool-size, 0.10.0: RARE's deploy scripts, heldout56)
_SETTLED_DAYS = 183


def recent_releases(releases: list, cat: Catalog) -> list:
    """The releases among `releases` that came out within half a year of the newest (empty when the
    newest's day is not known)."""
    newest = release_dates.released_on(str(cat.versions[-1]))
    if not newest:
        return []
    days = [(v, release_dates.released_on(str(v))) for v in releases]
    return [v for v, day in days if day and (date.fromisoformat(newest) - date.fromisoformat(day)).days <= _SETTLED_DAYS]


def _dropped_long_before(f, site: Site, cat: Catalog) -> bool:
    """Whether the release that dropped the option came out more than half a year before the newest."""
    e = _entry(f, site, cat)
    gone = e.removed_in() if e is not None and getattr(e, "spans", None) else None
    day, newest = release_dates.released_on(gone) if gone else None, release_dates.released_on(str(cat.versions[-1]))
    if not day or not newest:
        return False
    return (date.fromisoformat(newest) - date.fromisoformat(day)).days > _SETTLED_DAYS


def _fresh_way_out(f, site: Site, cat: Catalog, kb: Knowledge, image: bool = False) -> None:
    """A P0 that holds because nothing pins vLLM (a fresh install brings the newest release) or the
    image is `latest`: said so, with the other way out beside dropping the option — pinning a release
    that has it, the one the project was written for (a pin change marked alternative: named, never
    written by --fix), or for an image its release tag."""
    e = _entry(f, site, cat)
    if e is None or not getattr(e, "last", None):
        return
    oldest = cat.index_version(e.first) <= cat.versions[0]
    spec = f"<={e.last}" if oldest else f">={e.first},<={e.last}"
    # an image older than the option's first release lacks it too: "or older" only where none is
    latest = "priority.latest_fresh" if oldest else "priority.latest_fresh_span"
    key, kw = (latest, {"first": e.first, "last": e.last}) if image else ("priority.unpinned_fresh", {"spec": spec})
    f.message = {lang: f.message[lang] + kb.t(key, lang, version=str(cat.versions[-1]), **kw) for lang in ("en", "zh")}
    if not image:
        f.fix = list(f.fix) + [(FixOp("pin", "vllm", alternative=True), spec)]


def _entry(f, site: Site, cat: Catalog):
    s = site.settings.get(f.subject)
    return (cat.flag(normalise_flag("--" + (s.key or f.subject).lstrip("-"))[0]) if s is not None else None) or cat.arg(f.subject)


def _some_release_accepts(f, site: Site, cat: Catalog, releases: list) -> bool:
    """Whether an option the newest release lacks is still in a release the image may hold."""
    if f.code not in ("not-in-version", "env-not-in-version"):
        return True  # a value some release lists (the finding names those releases)
    e = cat.env(f.subject) if f.code == "env-not-in-version" else _entry(f, site, cat)
    if e is None or not getattr(e, "first", None):
        return f.code != "env-not-in-version"  # a variable no release reads: every release ignores it
    span = SpecifierSet(f">={e.first},<={e.last}")
    return any(span.contains(str(v)) for v in releases)


def settle_range(findings: list, site: Site, cat: Catalog, kb: Knowledge, releases: list, spec: str, via: str = "") -> None:
    """A project that allows a range of releases (`vllm>=0.8.3`, or what a framework release
    declares): an option or value only the newest of them dropped is a P1 that names the range, as
    `evaluate.settle_priorities` does for the checks. `via`: the range is read from another package's
    pin beside a bare `vllm` (extra_pins.torch_ranges); an option only later releases have is then the
    site's own word that it runs in another install (Qwen2.5-Coder's benchmark scripts pass
    distributed_executor_backend beside the root file's transformers==4.39.1, which caps vLLM at 0.4.0.post1)."""
    if not releases:
        return
    for f in findings:
        if getattr(f, "priority", None) != "P0" or f.code not in RELEASE_BOUND:
            continue
        if _some_release_accepts(f, site, cat, releases):
            lower(f, "P1", note(kb, "priority.range_finding", spec=spec))
        elif via and f.code == "not-in-version" and (e := _entry(f, site, cat)) is not None and getattr(e, "first", None) \
                and cat.index_version(e.first) > releases[-1]:
            lower(f, "P1", note(kb, "priority.copin_later_finding", spec=spec, via=via, first=e.first))


def settle_copin(results: list, kb: Knowledge, releases: list, spec: str, via: str) -> None:
    """A check's P0 under a range read from a co-pin (settle_range's `via`) whose own way out is a vLLM
    after the range (L139: an import only later releases have): the site's code was written for another
    install, so the cap is no certainty there."""
    for r in results:
        if r.status != "recommended" or r.priority != "P0" or not releases:
            continue
        later = [v for op, v in (r.fix or []) if op.kind == "pin" and op.target == "vllm" and isinstance(v, str)]
        try:
            after = later and all(not any(SpecifierSet(v).contains(str(x)) for x in releases) for v in later)
        except InvalidSpecifier:
            after = False
        if after:
            lower(r, "P1", note(kb, "priority.copin_later_check", spec=spec, via=via))


@dataclass
class Between:
    """A site judged as one release whose code may be another's: a build between two releases, a
    development build, or a launch that pins nothing beside an image (engine/scan/image_beside.py)."""
    low: str  # the earlier release
    other: dict  # the same site's facts with the other release's
    spec: str  # the code a P0 of only the judged release needs (`<0.8.0`, `>0.7.3`, `0.9.1`)
    why: str = "source"  # the texts that say so: source (a build between releases) or beside
    high: str = ""  # the later release


def settle_between(results: list, other: list, kb: Knowledge, between: Between) -> None:
    """A P0 that does not hold with the other release's facts too (`other`: the same site's results
    with them) is a P1 that says which code it needs (`between.spec`: `<0.8.0` where judged as the
    earlier, the commit may already have what 0.8.0 has; `>0.7.3` where judged as the later, it may
    not have it yet; beside: the image's release, where the newest release does not refuse it)."""
    spec, low, why = between.spec, between.low, between.why
    then = {r.check.id: r for r in other}
    for r in results:
        if r.status != "recommended" or r.priority != "P0":
            continue
        o = then.get(r.check.id)
        if o is not None and o.status == "recommended" and o.priority == "P0":
            continue
        lower(r, "P1", note(kb, f"priority.{why}", spec=spec, floor=low, high=between.high))


def allowed_releases(cat, choice) -> list:
    """The known releases a version range allows (empty when the choice is no range)."""
    if choice.basis == "image-dated" and choice.pin is not None:
        # built that day: the newest release by then, or main's code on its way to the next one
        return [cat.index_version(v) for v in release_dates.newest_by(image_date(choice.pin.text) or "") if v]
    if choice.basis != "range" or choice.pin is None:
        return []
    try:
        spec = SpecifierSet(choice.pin.spec)
    except InvalidSpecifier:
        return []
    return [v for v in cat.versions if spec.contains(str(v)) and (choice.among is None or str(v) in choice.among)]
