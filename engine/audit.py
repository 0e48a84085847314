"""One audit, end to end — the orchestration of the stages and nothing else: read the project
(scan), decide each site's vLLM release, build its facts and run the checks and catalog
findings (check), plan the changes in the site's syntax (fix), and hand the result to the
renderers (report)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Callable, Iterator

from vllm_kb.engine.check import balanced, candidates, catalog_findings, chat_template_path, colocation, entrypoint_findings, import_sites, name_guess, trainer_beside, unpinned, vendored_sites
from vllm_kb.engine.check.evaluate import cap_opaque, evaluate_all, settle_documented, settle_priorities
from vllm_kb.engine.check.hidden_args import hidden_args
from vllm_kb.engine.check.site_platform import PLATFORM_PLUGINS
from vllm_kb.engine.check.owners import settle_owners
from vllm_kb.engine.check.project_facts import add_project_facts
from vllm_kb.engine.check.site_release import release_facts
from vllm_kb.engine.check.unpinned import allowed_releases
from vllm_kb.engine.fix.changes import fixables, plan
from vllm_kb.engine.fix.container_edits import container_changes
from vllm_kb.engine.fix.pins import pin_changes
from vllm_kb.engine.fix.text_edits import diffs
from vllm_kb.engine.kb import catalog as catalog_mod
from vllm_kb.engine.kb import machine
from vllm_kb.engine.kb import compat, redact
from vllm_kb.engine.kb.knowledge import Knowledge, load
from vllm_kb.engine.report.results import AuditReport, SiteReport
from vllm_kb.engine.scan import image_beside, project_imports, python_callers, python_facts, requirement, source_pins, workspace_image
from vllm_kb.engine.scan.clients import tool_client_urls
from vllm_kb.engine.scan.model_clients import model_clients
from vllm_kb.engine.scan.images import is_vllm_image
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.project import Scan, choice_for, scan_project
from vllm_kb.engine.scan.site import Site


def audit(path: str | Path, *, gpu: str | None = None, vllm_version: str | None = None, nvml=None,
          kb: Knowledge | None = None, exclude: Callable[[str], bool] | None = None,
          overlay: dict[str, str] | None = None, progress: Callable[[str, int], None] | None = None,
          files: list[str] | None = None, scanned: Scan | None = None) -> AuditReport:
    """`exclude(rel)` drops files before they are read; `overlay` gives files' texts instead of
    the disk's (how --diff sees the project after earlier fixes); `progress(phase, n)` is told of
    each file read and each site checked; `files` limits the read to those files of the folder
    `path` (engine/scan/project.py). `scanned` is the project already read (scan_project), which
    the audit consumes: audits of one read each take a copy_scan of it; the read's arguments are then unused."""
    rep, _sites, reports = audit_lazily(path, gpu=gpu, vllm_version=vllm_version, nvml=nvml, kb=kb, exclude=exclude,
                                        overlay=overlay, progress=progress, files=files, scanned=scanned)
    rep.sites = list(reports)
    return rep


def audit_lazily(path: str | Path, *, gpu: str | None = None, vllm_version: str | None = None, nvml=None,
                 kb: Knowledge | None = None, exclude: Callable[[str], bool] | None = None,
                 overlay: dict[str, str] | None = None,
                 progress: Callable[[str, int], None] | None = None, files: list[str] | None = None,
                 scanned: Scan | None = None) -> tuple[AuditReport, list[Site], "SiteReports"]:
    """The project read and its report without sites, the sites found, and their reports one at
    a time (what a streamed report writes and forgets, so memory does not grow with the sites)."""
    kb = kb or load()
    cat = catalog_mod.load()
    sc = scanned if scanned is not None else scan_project(path, vllm_version=vllm_version, exclude=exclude, overlay=overlay,
                                                          progress=progress, files=files)
    redact.known_secrets(s.value for site in sc.sites for s in (*site.settings.values(), *site.env.values())
                         if redact.is_secret_name(s.name) or redact.is_secret_name(s.key))
    hardware = machine.resolve(kb.gpus, gpu, nvml)
    rep = AuditReport(root=sc.root, sites=[], skipped=sc.ctx.skipped, hardware=hardware, files_scanned=len(sc.files),
                      pins=sc.pins, default_version=sc.default, kb=kb, files=list(sc.files), ctx=sc.ctx)
    prepared: list = []
    images = image_beside.index(sc.sites + sc.image_only, {str(v) for v in cat.versions},
                                workspace_image.workspaces(sc.files, sc.ctx.read)) if sc.default.basis == "none" else {}
    for site in sc.sites:
        try:
            choice = image_beside.choice(site, choice_for(site.file, sc.choices, sc.default, sc.own), images)
            prepared.append((site, *release_facts(site, choice, hardware, kb, cat, sc.ctx)))
        except Exception as e:  # noqa: BLE001 — one site's bug must not cost the report of the others
            sc.ctx.skip(site.file, "scanner-error", site.line, f"{type(e).__name__}: {e}"[:160])
    # a launch in a module the project imports only under other vLLM releases never runs on this one
    kept = import_sites.gated_out(prepared, sc.files, sc.ctx.read, sc.ctx.skip)
    if len(kept) < len(prepared):
        gone = {id(p[0]) for p in prepared} - {id(p[0]) for p in kept}
        sc.sites[:] = [s for s in sc.sites if id(s) not in gone]
        prepared = kept
    colocation.annotate([(p[0], p[2]) for p in prepared], sc.ctx.read)  # engines that share a GPU
    colocation.trainer_overlap([(p[0], p[2]) for p in prepared])  # a rollout server on its trainer's GPUs
    trainer_beside.annotate([(p[0], p[2]) for p in prepared], sc.ctx.read)  # a trainer the project starts on the engine's GPU
    balanced.annotate([(p[0], p[2]) for p in prepared], sc.files, sc.ctx.read)  # replicas behind the project's nginx
    # code that asks a server for automatic tool choice: only the site that serves HTTP at its URL
    # reads it (engine/check/endpoints.py; the files are read again only where a site serves HTTP)
    serving = any(p[2]["site"].get("serves_http") for p in prepared)
    clients = tool_client_urls(sc.ctx, sc.files) if serving else []
    # a module that imports vLLM's own modules where no launch site reaches it: a site of its own,
    # judged by L139 alone, kept only where its import fails (engine/check/import_sites.py)
    for site in import_sites.candidates(sc.files, sc.ctx.read, sc.sites, project_imports.Launches(sc.files, sc.ctx.read)):
        try:
            python_facts.bound_release(sc.ctx, site.file, site)  # a RayService's runtime_env installs its release
            prepared.append((site, *release_facts(site, choice_for(site.file, sc.choices, sc.default, sc.own),
                                                  hardware, kb, cat, sc.ctx)))
        except Exception as e:  # noqa: BLE001 — as above
            sc.ctx.skip(site.file, "scanner-error", site.line, f"{type(e).__name__}: {e}"[:160])
    add_project_facts(prepared, sc, kb, cat, clients, model_clients(sc.ctx, sc.files) if serving else [])
    prepared = [p for p in prepared if p[0].kind != import_sites.KIND or import_sites.keep(p[0], p[2])]
    sc.sites.extend(p[0] for p in prepared if p[0].kind == import_sites.KIND)
    # every site's facts are built: the texts and modules the scan kept are let go (a site's file is read again for its diff)
    sc.ctx.release()
    python_callers.forget()
    return rep, sc.sites, SiteReports(prepared, kb, cat, sc, progress)


class SiteReports:
    """The site reports of an audit, made one at a time, in order (iterate) or by index (`make`,
    what a forked worker of engine/report/stream.py calls for its share). Each site's facts are
    let go once its report is made."""

    def __init__(self, prepared: list, kb: Knowledge, cat, sc, progress: Callable[[str, int], None] | None):
        self.prepared, self.kb, self.cat, self.sc, self.progress = prepared, kb, cat, sc, progress
        self.pins = sc.pins + sc.ctx.dependency_pins
        self._bounded: bool | None = None

    def bounded(self) -> bool:
        """Whether a project pin bounds the install (_bounded): the same for every site of the root,
        asked once, and only when an unpinned site needs it (a thousand such sites asked it a thousand times)."""
        if self._bounded is None:
            self._bounded = _bounded(self.pins)
        return self._bounded

    def __len__(self) -> int:
        return len(self.prepared)

    def make(self, i: int) -> SiteReport | None:
        site, choice, facts = self.prepared[i]
        self.prepared[i] = None  # the report holds what is still needed; a streamed report lets it go
        try:
            return _site_report(site, choice, facts, self.kb, self.cat, self.sc.ctx, self.pins, self.bounded)
        except Exception as e:  # noqa: BLE001 — one site's bug must not cost the report of the others
            self.sc.ctx.skip(site.file, "scanner-error", site.line, f"{type(e).__name__}: {e}"[:160])
            return None

    def __iter__(self) -> Iterator[SiteReport]:
        for i in range(len(self.prepared)):
            sr = self.make(i)
            if self.progress is not None:
                self.progress("check", len(self.sc.sites))
            if sr is not None:
                yield sr


def replan(rep: AuditReport, sr: SiteReport) -> None:
    """Plan a site's changes again after its results or findings were filtered (config,
    suppressions, baseline): what is hidden is not changed either."""
    cat = catalog_mod.load()
    items = fixables(sr.results, sr.remarks)
    pins = rep.pins + (rep.ctx.dependency_pins if rep.ctx is not None else [])  # a torch pin L115 rewrites
    sr.changes = plan(sr.site, items, cat, sr.lookup_version) + pin_changes(sr.site, items, pins, sr.version) \
        + container_changes(sr.site, items)
    urgent = [c for c in sr.changes if c.priority in ("P0", "P1")]
    sr.after = diffs(sr.site, urgent, rep.ctx.read)


def _fresh_install(site: Site, choice, bounded: Callable[[], bool], ctx: ScanContext | None = None) -> bool:
    """Nothing holds the site's install back from the newest release: no vLLM pin, image or install,
    no framework driving it and no pin of a framework or serving package that declares a vLLM range
    (`bounded`: SiteReports.bounded). An image tagged `latest` is the newest release
    on a host that pulls it first, and a host that pulled it in the last half year holds no option
    dropped before then either (engine/check/unpinned.py _SETTLED_DAYS)."""
    if choice.basis == unpinned.BASIS and site.framework == "none":
        return _latest_tag(site.image or "") or _written_untagged(site, ctx)
    if choice.basis != "none" or site.framework != "none" or site.launch.get("release_placeholder"):
        return False  # a template's `vllm=={vllm_version}`, a command the code renders: its release is the code's choice
    if set(site.plugins or ()) & set(PLATFORM_PLUGINS):
        return False  # vllm-ascend is installed over the vLLM release it was built for, never the newest by itself
    return not bounded()


def _latest_tag(image: str) -> bool:
    """vLLM's own image tagged `latest` as written (a local build named `vllm` is whatever the host built;
    no tag may be a template's tag the audit could not read: `vllm/vllm-openai:v{vllm_version}`)."""
    return is_vllm_image(image) and image.strip().rsplit("/", 1)[-1].endswith(":latest")


def _written_untagged(site: Site, ctx: ScanContext | None) -> bool:
    """vLLM's own image written with no tag in the site's file (`image: vllm/vllm-openai`): docker pulls
    `latest` for it (eval79 robertgshaw2-neuralmagic/vllm-k8s). Only as written there: a template's tag the
    audit could not read also leaves the name bare, and a chart's `repository:` with an empty tag is its appVersion."""
    image = (site.image or "").strip()
    if not is_vllm_image(image) or ":" in image.rsplit("/", 1)[-1] or "@" in image or ctx is None:
        return False
    bare = re.compile(r"^(?!\s*-?\s*(?:repository|name)\s*:).*(?<![\w./-])" + re.escape(image) + r"(?=$|[\s\"',\]])", re.M)
    return bool(bare.search(ctx.read(site.file) or ""))


def _bounded(pins: list) -> bool:
    """Whether a pin of the project (its pins and dependency pins) is a framework's or serving
    package's that declares a vLLM range."""
    bounding = {r.framework for r in compat.rows()} | set(requirement.HOST_PACKAGES)
    return any(p.package in bounding for p in pins)


def _site_report(site: Site, choice, facts: dict, kb: Knowledge, cat, ctx: ScanContext, pins: list,
                 bounded: Callable[[], bool]) -> SiteReport:
    resolved = cat.resolve(choice.version)
    # an argument sized by the GPUs the process sees is known once --gpu says how many there are
    unresolved = {n: f"{s.key or n} = {s.raw} ({s.where})" for n, s in site.settings.items()
                  if not s.resolved and not (n in site.device_args and n in facts["engine"])}
    unresolved.update(hidden_args(site, cat.arg_names))
    others = facts.pop("model_alternatives", None)
    between = facts.pop("between_releases", None)
    control = facts.pop("name_control", None)
    only = import_sites.ONLY if site.kind == import_sites.KIND else None
    results = evaluate_all(kb, facts, unresolved, site.engine_elsewhere, only=only)
    if others:
        candidates.merge(results, [evaluate_all(kb, candidates.with_parts(facts, o), unresolved, site.engine_elsewhere)
                                   for o in others], facts["model"].get("candidates") or facts["model"].get("revisions") or [], kb,
                         "reason.model_revisions" if facts["model"].get("revisions") else "reason.model_candidates")
    if control is not None and (sure := name_guess.certain(results)):
        # only the P0s are settled by the control: it evaluates those checks alone
        name_guess.settle(results, evaluate_all(kb, candidates.with_parts(facts, control), unresolved, site.engine_elsewhere, only=sure),
                          kb, str(facts["model"].get("name")))
    handled = {op.target for r in results if r.needs_change for op, _ in r.fix if op.kind in ("unset", "unset_env")}
    # a less urgent removal (D6's "leave it unset") must not hide the catalog's P0 that the release
    # refuses the value: the refusals are hidden only by a P0 check's removal
    urgent = {op.target for r in results if r.needs_change and r.priority == "P0"
              for op, _ in r.fix if op.kind in ("unset", "unset_env")}
    if (facts.get("startup") or {}).get("quant_claimed"):
        # the checkpoint's override replaces --quantization before vLLM looks the value up (L9)
        urgent.add("quantization")
    # the keys of a JSON argument that a P0 check already rewrites (A3: compilation_config.level)
    claimed = {(op.target, k) for r in results if r.needs_change and r.priority == "P0"
               for op, v in r.fix if op.kind == "set" and isinstance(v, dict) for k in v}
    # the release is known (a pin, a tagged image; nothing pinned: the newest a fresh install gets)
    known = choice.basis not in (unpinned.BASIS, "source", "unreadable", "range", "image-dated")
    own = [f for f in site.remarks if not (known and entrypoint_findings.model_tag_taken(f, site, choice.version))]
    remarks = own + catalog_findings.site_findings(site, cat, choice.version, resolved.version, handled, kb, urgent,
                                                                  claimed, choice.pinned)
    remarks += chat_template_path.findings(site, ctx.root, choice.basis, choice.version)
    settle_priorities(results, remarks, choice.basis, allowed_releases(cat, choice), kb)
    if choice.basis == "none" and site.framework != "none":
        # no vLLM pin beside a framework: its own install brings a release it accepts, so a failure
        # of the newest release only (a framework finding with a `vllm:` range) is not a certain one
        for f in remarks:
            if f.priority == "P0" and getattr(f, "vllm", None) and f.code.startswith(site.framework + "-"):
                f.priority = "P1"
    if between is not None:
        other = between.other
        for key, value in facts.items():  # what the audit added to the site's facts after they were made
            other[key] = {**value, **other[key]} if key == "launch" else other.get(key, value)
        unpinned.settle_between(results, evaluate_all(kb, other, unresolved, site.engine_elsewhere), kb, between)
    if choice.basis in (unpinned.BASIS, "source", "none", "unreadable"):
        # an untagged image, a source build (engine/scan/source_pins.py), no pin, image or install
        # anywhere (the release that runs is the user's), or a pin whose release the audit cannot
        # read (`vllm==${VLLM_VERSION}`: some release, not the newest for sure): a P0 of some releases only is not certain
        why = {"none": "unpinned", "source": "source", "unreadable": "unreadable"}.get(choice.basis, "untagged")
        why = "fork" if why == "source" and choice.pin is not None and choice.pin.source == "fork" else why
        # a subclass of vLLM's LLM forwarding its own parameters runs on its importer's release, not a fresh install's
        wrapper = bool(site.launch.get("in_llm_subclass"))
        unpinned.settle(results, remarks, site, cat, kb, why, checks=choice.basis != "none" or wrapper,
                        fresh=not wrapper and _fresh_install(site, choice, bounded, ctx),
                        newer=choice.basis == "source" and source_pins.newer_than_releases(choice, cat.versions),
                        span=source_pins.dev_span(choice, cat.versions) if choice.basis == "source" else None)
        if choice.basis != "none":
            unpinned.settle_memory(results, facts.get("memory"), kb, str(choice.version))
    elif between is not None and between.why not in ("fw_range", "fw_derived"):  # a version no release has, or an image beside: options and values of either release
        unpinned.settle(results, remarks, site, cat, kb, between.why,
                        span=[cat.index_version(between.low), cat.index_version(between.high)], checks=False)
    elif choice.basis == "range" and choice.pin is not None:
        unpinned.settle_range(remarks, site, cat, kb, allowed_releases(cat, choice), choice.pin.spec, choice.pin.via)
        if choice.pin.via:
            unpinned.settle_copin(results, kb, allowed_releases(cat, choice), choice.pin.spec, choice.pin.via)
    elif choice.basis == "image-dated" and (allowed := allowed_releases(cat, choice)):
        # built from main on that day: an option or value the next release has may be in it already
        unpinned.settle_range(remarks, site, cat, kb, allowed, f">={allowed[0]},<={allowed[-1]}")
    if site.launch.get("opaque"):
        cap_opaque(results, remarks)
    settle_documented(results, remarks, kb, site.launch)
    # a site in a vendored framework copy: its upstream tests, or a module its version test never imports
    vendored_sites.settle(results, remarks, site.file, ctx, [str(v) for v in allowed_releases(cat, choice)]
                          or ([str(choice.version)] if choice.basis not in (unpinned.BASIS, "source", "none") else []), kb)
    settle_owners(results, remarks, facts, kb)  # one cause, one owner: after every other priority rule
    items = fixables(results, remarks)
    try:
        changes = plan(site, items, cat, resolved.version) + pin_changes(site, items, pins, choice) + container_changes(site, items)
        after = diffs(site, [c for c in changes if c.priority in ("P0", "P1")], ctx.read)
    except Exception as e:  # noqa: BLE001 — a planner bug costs the site its changes, never its verdicts
        ctx.skip(site.file, "planner-error", site.line, f"{type(e).__name__}: {e}"[:160])
        changes, after = [], []
    return SiteReport(site, facts, results, changes, after, choice, resolved.version, resolved.note, remarks)
