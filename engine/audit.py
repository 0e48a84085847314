"""One audit, end to end — the orchestration of the stages and nothing else: read the project
(scan), decide each site's vLLM release, build its facts and run the checks and catalog
findings (check), plan the changes in the site's syntax (fix), and hand the result to the
renderers (report)."""
from __future__ import annotations

import re
from pathlib import Path, PurePosixPath
from typing import Any, Callable, Iterator

from vllm_kb.engine.check import candidates, catalog_findings, colocation, framework_compat, framework_range, unpinned, vendored_sites
from vllm_kb.engine.check.evaluate import cap_opaque, evaluate_all, settle_priorities
from vllm_kb.engine.check.facts import site_facts
from vllm_kb.engine.check.hidden_args import hidden_args
from vllm_kb.engine.check.lora_adapters import training_ranks
from vllm_kb.engine.check.owners import settle_owners
from vllm_kb.engine.check.project_facts import add_project_facts
from vllm_kb.engine.check.startup_modelcap import mark_local
from vllm_kb.engine.check.unpinned import allowed_releases
from vllm_kb.engine.fix.changes import fixables, plan
from vllm_kb.engine.fix.pins import pin_changes
from vllm_kb.engine.fix.text_edits import diffs
from vllm_kb.engine.kb import catalog as catalog_mod
from vllm_kb.engine.kb import machine
from vllm_kb.engine.kb import compat, redact, release_dates
from vllm_kb.engine.kb.knowledge import Knowledge, load
from vllm_kb.engine.report.results import AuditReport, SiteReport
from vllm_kb.engine.scan import deploy, image_beside, pin_alternatives, pins as pins_mod, python_callers, requirement, source_pins, xinference_server
from vllm_kb.engine.scan.clients import tool_client_urls
from vllm_kb.engine.scan.model_clients import model_clients
from vllm_kb.engine.scan.images import image_date, is_vllm_image, vendor_build_day
from vllm_kb.engine.scan.dmr_launch import model_runner_choice
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.project import choice_for, scan_project
from vllm_kb.engine.scan.site import Site


def audit(path: str | Path, *, gpu: str | None = None, vllm_version: str | None = None, nvml=None,
          kb: Knowledge | None = None, exclude: Callable[[str], bool] | None = None,
          overlay: dict[str, str] | None = None, progress: Callable[[str, int], None] | None = None,
          files: list[str] | None = None) -> AuditReport:
    """`exclude(rel)` drops files before they are read; `overlay` gives files' texts instead of
    the disk's (how --diff sees the project after earlier fixes); `progress(phase, n)` is told of
    each file read and each site checked; `files` limits the read to those files of the folder
    `path` (engine/scan/project.py)."""
    rep, _sites, reports = audit_lazily(path, gpu=gpu, vllm_version=vllm_version, nvml=nvml, kb=kb, exclude=exclude,
                                        overlay=overlay, progress=progress, files=files)
    rep.sites = list(reports)
    return rep


def audit_lazily(path: str | Path, *, gpu: str | None = None, vllm_version: str | None = None, nvml=None,
                 kb: Knowledge | None = None, exclude: Callable[[str], bool] | None = None,
                 overlay: dict[str, str] | None = None,
                 progress: Callable[[str, int], None] | None = None, files: list[str] | None = None,
                 ) -> tuple[AuditReport, list[Site], "SiteReports"]:
    """The project read and its report without sites, the sites found, and their reports one at
    a time (what a streamed report writes and forgets, so memory does not grow with the sites)."""
    kb = kb or load()
    cat = catalog_mod.load()
    sc = scan_project(path, vllm_version=vllm_version, exclude=exclude, overlay=overlay, progress=progress, files=files)
    redact.known_secrets(s.value for site in sc.sites for s in (*site.settings.values(), *site.env.values())
                         if redact.is_secret_name(s.name) or redact.is_secret_name(s.key))
    hardware = machine.resolve(kb.gpus, gpu, nvml)
    rep = AuditReport(root=sc.root, sites=[], skipped=sc.ctx.skipped, hardware=hardware, files_scanned=len(sc.files),
                      pins=sc.pins, default_version=sc.default, kb=kb, files=list(sc.files), ctx=sc.ctx)
    prepared: list = []
    images = image_beside.index(sc.sites + sc.image_only, {str(v) for v in cat.versions}) if sc.default.basis == "none" else {}
    for site in sc.sites:
        try:
            choice = image_beside.choice(site, choice_for(site.file, sc.choices, sc.default, sc.own), images)
            prepared.append((site, *_site_facts(site, choice, hardware, kb, cat, sc.ctx)))
        except Exception as e:  # noqa: BLE001 — one site's bug must not cost the report of the others
            sc.ctx.skip(site.file, "scanner-error", site.line, f"{type(e).__name__}: {e}"[:160])
    colocation.annotate([(p[0], p[2]) for p in prepared], sc.ctx.read)  # engines that share a GPU
    colocation.trainer_overlap([(p[0], p[2]) for p in prepared])  # a rollout server on its trainer's GPUs
    # code that asks a server for automatic tool choice: only the site that serves HTTP at its URL
    # reads it (engine/check/endpoints.py; the files are read again only where a site serves HTTP)
    serving = any(p[2]["site"].get("serves_http") for p in prepared)
    clients = tool_client_urls(sc.ctx, sc.files) if serving else []
    add_project_facts(prepared, sc, kb, cat, clients, model_clients(sc.ctx, sc.files) if serving else [])
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
    sr.changes = plan(sr.site, items, cat, sr.lookup_version) + pin_changes(sr.site, items, pins, sr.version)
    urgent = [c for c in sr.changes if c.priority in ("P0", "P1")]
    sr.after = diffs(sr.site, urgent, rep.ctx.read)


def _training_ranks(ctx: ScanContext) -> dict:
    """The project's LoRA training configs by output_dir, read once per audit and only when a site
    names an adapter folder the project does not hold (engine/check/lora_adapters.py)."""
    got = ctx.__dict__.get("_lora_training")
    if got is None:
        got = ctx.__dict__["_lora_training"] = training_ranks(ctx.files, ctx.read)
    return got


def _install(site: Site, choice, basis: str, ctx: ScanContext) -> str | None:
    """How the site's vLLM was installed, where that decides an optional dependency: "image" (vLLM's
    own image, which ships FlashInfer), "pip" (a plain pin; FlashInfer is an extra before 0.11.1 —
    setup.py `extras_require["flashinfer"]` 0.10.1-0.11.0 — and not installed unless asked for)."""
    if basis == "image":
        return "image"
    pin = choice.pin
    if basis != "pin" or pin is None or "flashinfer" in (pin.text or "").lower() or "flashinfer" in pin.extras:
        return None
    if any(p.package == "flashinfer-python" for p in getattr(ctx, "dependency_pins", None) or ()):
        return None
    return "pip"


def _site_facts(site: Site, choice, hardware, kb: Knowledge, cat, ctx: ScanContext):
    """The release the site runs (pin, image tag or image build) and its facts."""
    tag = deploy.image_version(site.image)
    # a script's own install on the launch's path that is already the folder's pin says nothing new
    own_pin = bool(site.launch.get("installed_on_path") and site.installed and choice.pin is not None
                   and choice.where == site.installed[1])
    if tag and choice.basis != "cli":
        at_file, at_line = site.launch.get("image_at") or (site.file, site.line)  # a Dockerfile FROM the site's file runs in
        choice = pins_mod.VersionChoice(tag, True, "image", pins_mod.Pin(at_file, at_line, site.image or "", f"=={tag}", "image", tag))
    elif own_pin:
        pass
    elif choice.basis == "pin" and (alternatives := pin_alternatives.choice(site, cat)) is not None:
        choice = alternatives  # one requirements file per backend (engine/scan/pin_alternatives.py): a range over them
    elif site.installed and choice.basis != "cli" and (ranged := pins_mod.installed_range(site.installed, cat.versions, cat.newest)):
        choice = ranged  # `pip install "vllm>=0.10"` in the site's own setup: judged as a requirements file's range
    elif site.installed and choice.basis != "cli":
        v, where, text = site.installed
        f, _, ln = where.rpartition(":")
        basis = "executable" if text.rsplit("/", 1)[-1].startswith(("vllm_", "vllm-")) else "build"
        pin = pins_mod.Pin(f, int(ln), text, f"=={v}", "image", v)
        if site.launch.get("installed_on_path"):  # a script's `pip install vllm==X` before the launch (scan/script_installs.py)
            env = site.launch["installed_on_path"]
            pin.via = f"conda:{env}" if isinstance(env, str) else "script"
            pin.replaces = (choice.where, choice.pin.text) if choice.pin is not None and str(choice.version) != v else ()
        choice = pins_mod.VersionChoice(v, True, basis, pin)
        if v == "source" or source_pins.is_dev(v):  # a build from a commit (engine/scan/source_pins.py)
            choice = pins_mod.choose([pins_mod.Pin(f, int(ln), text, "", "image", None, source="git")], cat.versions, cat.newest) \
                if v == "source" else pins_mod.choose([pins_mod.Pin(f, int(ln), text, f"=={v}", "image", v, source="dev")],
                                                      cat.versions, cat.newest)
    elif site.launch.get("remote") and not site.image and choice.basis != "cli":
        # `ssh HOST bash -s <<EOF … vllm serve …`: the remote machine's vLLM, which no pin here installs
        choice = pins_mod.VersionChoice(cat.newest, False, "none", pins_mod.Pin(site.file, site.line, "ssh", "", "image", None, via="remote"))
    elif site.tool == "gpustack" and (got := (site.source or {}).get("release")) and choice.basis != "cli":
        v, at, line, text, via = got  # the model's backend_version, or the GPUStack server image (engine/scan/deploy/gpustack.py)
        choice = pins_mod.VersionChoice(v, True, "image", pins_mod.Pin(at, line, text, f"=={v}", "image", v, via=via))
    elif site.tool == "xinference" and not site.image and choice.basis in ("none", "unbounded") \
            and (srv := xinference_server.server_release(ctx)):
        # a client of the Xinference server the project starts: that image's vLLM runs the model
        at, line, image, v = srv
        choice = pins_mod.VersionChoice(v, True, "image", pins_mod.Pin(at, line, image, f"=={v}", "image", v, via="xinference-server"))
    elif site.tool == "docker-model-runner" and choice.basis != "cli":
        choice = model_runner_choice(site, cat)  # the runner's own vLLM, whichever runner release the host has
    elif (day := image_date(site.image)) and (built := release_dates.newest_by(day)[0]) \
            and (deploy.is_vllm_like_image(site.image) or vendor_build_day(site.image)) and choice.basis != "cli":
        choice = pins_mod.VersionChoice(built, False, "image-dated",
                                        pins_mod.Pin(site.file, site.line, site.image or "", "", "image", None))
    elif site.image and choice.basis == "pin" and choice.pin is not None and deploy.is_vllm_like_image(site.image) \
            and (deploy.is_local_image(site.image) or site.launch.get("built_here")):
        # a vLLM image built here (`image: vllm-node`, a compose `build:`) that names no release: the
        # project's own pin is the best word on what it installs, and the report says it stands in
        choice = pins_mod.VersionChoice(choice.version, True, "stand-in", choice.pin)
    elif site.image and deploy.is_vllm_like_image(site.image) and choice.basis != "cli":
        # a prebuilt vLLM image (vllm-openai:latest, lmcache/vllm-openai:2025-05-05) runs the release
        # it was built with, which the project's Python pins do not decide
        choice = pins_mod.VersionChoice(cat.newest, False, unpinned.BASIS,
                                        pins_mod.Pin(site.file, site.line, site.image, "", "image", None))
    elif site.image and choice.basis == "none":
        # an image of another make (ghcr.io/llm-d/llm-d-dev:v0.2.2) and no pin in the project: it
        # holds whatever vLLM it was built with, not necessarily the newest
        choice = pins_mod.VersionChoice(cat.newest, False, unpinned.BASIS,
                                        pins_mod.Pin(site.file, site.line, site.image, "", "image", None))
    # a CUDA variant (`vllm==0.20.0+cu129`, `vllm-openai:v0.10.0-cu128`) is another build than the release's default
    # and an image another vendor built from vLLM (lmcache/vllm-openai) holds the kernels it chose
    variant = choice.pin is not None and _CUDA_VARIANT.search(choice.pin.text or "")
    other = choice.basis.startswith("image") and not deploy.is_vllm_image(site.image) \
        or choice.basis == "pin" and choice.pin is not None and choice.pin.kind == "image"  # a vendor image's FROM
    basis = "variant" if variant else ("image-dated-other" if choice.basis == "image-dated" else "image-other") if other else choice.basis
    if variant and choice.basis == "image" and not other:  # vllm/vllm-openai:v0.20.0-cu129: that CUDA's build
        basis = "image-" + variant.group(0)[1:]
    if basis in ("cli", "image") and _built_from_source(site, ctx):
        basis = source_pins.BASIS  # its kernels are the ones that build compiled (TORCH_CUDA_ARCH_LIST), not the release's
    # a candidate model is evaluated with everything the site itself is evaluated with
    same: dict[str, Any] = dict(root=ctx.root, basis=basis, trained=lambda: _training_ranks(ctx),
                install=_install(site, choice, basis, ctx), registered=ctx.registered_archs,
                downloads=ctx.model_downloads, pin_text=choice.pin.text if choice.pin else None)
    facts = site_facts(site, hardware, choice.version, choice.pinned, kb, cat, **same)
    mark_local(facts, choice.pin.text if choice.pin else None)
    others = facts.pop("model_alternatives", None)
    if others:  # a local path several catalogued models fit: each is evaluated (engine/check/candidates.py)
        facts["model_alternatives"] = [candidates.parts(site_facts(site, hardware, choice.version, choice.pinned, kb, cat,
                                                                   model=m, **same)) for m in others]

    def facts_at(release, pinned: bool = choice.pinned) -> dict:  # the same site's facts with another release's
        other = site_facts(site, hardware, str(release), pinned, kb, cat, **same)
        other.pop("model_alternatives", None)
        mark_local(other, choice.pin.text if choice.pin else None)
        return other

    if cat.resolve(str(choice.version)).note == "nearest" and (span := source_pins.span_of(str(choice.version), cat.versions)):
        # a version no release has (a vendor image's `0.7.4`, between 0.7.3 and 0.8.0) is a build of a commit
        # between two releases: the facts of the later one too, so that a P0 of only the earlier is not certain
        facts["between_releases"] = unpinned.Between(str(span[0]), facts_at(span[-1]), f"<{span[-1]}", high=str(span[-1]))
    elif choice.basis == "source" and (span := source_pins.dev_span(choice, cat.versions)):
        if str(span[-1]) != str(choice.version):
            # a development build after a release candidate (`0.16.0rc2.dev367`), judged as that release: main's code
            # after the branch cut may already hold the next minor release's (Qwen3.5's classes before 0.17.0), so a
            # P0 that the later release does not share is not certain
            facts["between_releases"] = unpinned.Between(str(choice.version), facts_at(span[-1]), f"<{span[-1]}", high=str(span[-1]))
        elif str(span[0]) != str(choice.version):
            # a development build (`0.8.0.dev42`), judged as the release it leads to: the facts of the release
            # before it too, so that a P0 of only the later is not certain either
            facts["between_releases"] = unpinned.Between(str(span[0]), facts_at(span[0]), f">{span[0]}", high=str(choice.version))
    elif (newer := framework_range.at_newest(site, str(choice.version), choice.pinned,
                                             lambda r: framework_compat.refuses(site, r, str(choice.version), facts, cat))) is not None:
        # a framework range pin (`trl>=0.14.0`) whose newest release passes other defaults: a check's P0 with the
        # lowest release's only is not certain (engine/check/framework_range.py)
        other = site_facts(newer, hardware, choice.version, choice.pinned, kb, cat, **same)
        other.pop("model_alternatives", None)
        mark_local(other, choice.pin.text if choice.pin else None)
        facts["between_releases"] = unpinned.Between(str(site.framework_version), other, site.framework_range, why="fw_range",
                                                     high=str(newer.framework_version))
    elif choice.basis == image_beside.BASIS and str(choice.version) != str(cat.newest):
        # the image beside the site, or a fresh install of the newest release (engine/scan/image_beside.py)
        facts["between_releases"] = unpinned.Between(str(choice.version), facts_at(cat.newest, False), str(choice.version),
                                                     why="beside", high=str(cat.newest))
    return choice, facts


_CUDA_VARIANT = re.compile(r"[+-]cu\d{3}")


def _built_from_source(site: Site, ctx: ScanContext) -> bool:
    """The site's vLLM is compiled from a checkout or a git URL (its image rebuilds it, or the
    project's pins say so) even though --vllm-version or an image tag names the release."""
    if site.installed and (site.installed[0] == "source" or source_pins.is_dev(site.installed[0])):
        return True
    if not ctx.source_built:
        return False
    parts = PurePosixPath(site.file).parent.parts
    return any("/".join(parts[:depth]) in ctx.source_built for depth in range(len(parts), -1, -1))


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
    results = evaluate_all(kb, facts, unresolved, site.engine_elsewhere)
    if others:
        candidates.merge(results, [evaluate_all(kb, candidates.with_parts(facts, o), unresolved, site.engine_elsewhere)
                                   for o in others], facts["model"].get("candidates") or facts["model"].get("revisions") or [], kb,
                         "reason.model_revisions" if facts["model"].get("revisions") else "reason.model_candidates")
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
    remarks = list(site.remarks) + catalog_findings.site_findings(site, cat, choice.version, resolved.version, handled, kb, urgent,
                                                                  claimed, choice.pinned)
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
        unpinned.settle(results, remarks, site, cat, kb, why, checks=choice.basis != "none", fresh=_fresh_install(site, choice, bounded, ctx),
                        newer=choice.basis == "source" and source_pins.newer_than_releases(choice, cat.versions),
                        span=source_pins.dev_span(choice, cat.versions) if choice.basis == "source" else None)
    elif between is not None and between.why != "fw_range":  # a version no release has, or an image beside: options and values of either release
        unpinned.settle(results, remarks, site, cat, kb, between.why,
                        span=[cat.index_version(between.low), cat.index_version(between.high)], checks=False)
    elif choice.basis == "range" and choice.pin is not None:
        unpinned.settle_range(remarks, site, cat, kb, allowed_releases(cat, choice), choice.pin.spec)
    elif choice.basis == "image-dated" and (allowed := allowed_releases(cat, choice)):
        # built from main on that day: an option or value the next release has may be in it already
        unpinned.settle_range(remarks, site, cat, kb, allowed, f">={allowed[0]},<={allowed[-1]}")
    if site.launch.get("opaque"):
        cap_opaque(results, remarks)
    # a site in a vendored framework copy: its upstream tests, or a module its version test never imports
    vendored_sites.settle(results, remarks, site.file, ctx, [str(v) for v in allowed_releases(cat, choice)]
                          or ([str(choice.version)] if choice.basis not in (unpinned.BASIS, "source", "none") else []), kb)
    settle_owners(results, remarks, facts, kb)  # one cause, one owner: after every other priority rule
    items = fixables(results, remarks)
    try:
        changes = plan(site, items, cat, resolved.version) + pin_changes(site, items, pins, choice)
        after = diffs(site, [c for c in changes if c.priority in ("P0", "P1")], ctx.read)
    except Exception as e:  # noqa: BLE001 — a planner bug costs the site its changes, never its verdicts
        ctx.skip(site.file, "planner-error", site.line, f"{type(e).__name__}: {e}"[:160])
        changes, after = [], []
    return SiteReport(site, facts, results, changes, after, choice, resolved.version, resolved.note, remarks)
