"""The report as data: one JSON-able dict (the versioned contract in schema/report.schema.json)
that every output format renders, so text, Markdown and JSON never disagree."""
from __future__ import annotations

import re
from typing import Any, Callable

from vllm_kb.engine.kb import redact as redact_mod
from vllm_kb.engine.kb import safe_text
from vllm_kb.engine.kb.gpu_mix import memory_label
from vllm_kb.engine.kb.hardware import chip_label
from vllm_kb.engine.advise import scenarios, tables
from vllm_kb.engine.check import baseline
from vllm_kb.engine.report import catalogue
from vllm_kb.engine.report.results import AuditReport, SiteReport
from vllm_kb.engine.report.site_hardware import site_hardware
from vllm_kb.engine.check.evaluate import NO_CHANGE
from vllm_kb.engine.fix.changes import PRIORITY_ORDER
from vllm_kb.engine.fix import apply as apply_fixes
from vllm_kb.engine.check.suppressions import locate
from vllm_kb.engine.check.raise_order import stage_of
from vllm_kb.engine.scan.image_tables import framework_image_source, unlisted_vendor_release
from vllm_kb.engine.scan.images import vendor_build_day

SCHEMA_VERSION = 2  # 2: the check catalogue once per report (engine/report/catalogue.py)
REDACTED = redact_mod.REDACTED
# The effective values a reader wants beside the model and hardware.
KEY_ARGS = ("tensor_parallel_size", "pipeline_parallel_size", "data_parallel_size", "gpu_memory_utilization",
            "max_model_len", "max_num_seqs", "max_num_batched_tokens", "kv_cache_dtype", "quantization")


def tool_version() -> str:
    """vllm-kb's version, from the one place it is written (engine/kb/about.py)."""
    from vllm_kb.engine.kb.about import __version__

    return __version__


def _redact(name: str, value: Any) -> Any:
    """A value under its name, secrets hidden (engine/kb/redact.py decides what is one)."""
    return redact_mod.redact_value(name, value)


_VIA = ("xinference-server", "gpustack-backend", "gpustack-server")


def version_text(kb, choice, lang: str) -> str:
    text = _version_text(kb, choice, lang)
    if getattr(choice, "bare_beside", ()):  # the files read that name vLLM without a version: set aside, said
        key = "version.bare_apart" if getattr(choice, "bare_apart", False) else "version.bare_beside"
        text += kb.t(key, lang, files=", ".join(choice.bare_beside))
    return text


def _project_version_text(kb, choice, lang: str) -> str:
    """The project's release in words. Where nothing pins vLLM project-wide, the header says what the
    release of a site that names none is, not that every site runs it: an image tag or a site's own install
    decides its own (eval115: lws, GKE samples, OME, whose sites were image-pinned), as the summary counts."""
    text = version_text(kb, choice, lang)
    if choice.basis == "none" and choice.pin is None:
        return text.replace(kb.t("version.none", lang, version=choice.version), kb.t("version.none_project", lang, version=choice.version), 1)
    return text


def _version_text(kb, choice, lang: str) -> str:
    p = choice.pin
    if choice.basis == "range" and p is not None and p.kind == "docs":  # install instructions: judged as their release
        return kb.t("version.docs", lang, version=choice.version, where=choice.where, text=p.text)
    if choice.basis == "range" and p is not None and p.via == "docker-model-runner":  # the runner's own vLLM
        return kb.t("version.docker-model-runner", lang, version=choice.version, where=choice.where, spec=p.spec)
    if choice.basis in ("range", "pin") and p is not None and p.within:  # a vendored copy's range within the project's floor
        return kb.t("version.within", lang, version=choice.version, where=choice.where, text=p.text, within=p.within)
    if choice.basis == "range" and p is not None and p.via:  # the range another pin beside it implies
        return kb.t("version.co-pin", lang, version=choice.version, where=choice.where, text=p.text, via=p.via, spec=p.spec)
    if choice.basis == "none" and p is not None and p.via == "remote":  # run on another machine over ssh
        return kb.t("version.remote", lang, version=choice.version, where=choice.where)
    if choice.basis == "image" and p is not None and p.via in _VIA:  # the server the launch asks, the tool's own choice
        return kb.t(f"version.{p.via}", lang, version=choice.version, where=choice.where, text=p.text)
    if choice.basis in ("image", "pin") and p is not None and p.kind == "image" \
            and (made := framework_image_source(p.text)) and made[0] == str(choice.version):
        # a tag in its maker's own numbering (kserve/huggingfaceserver:v0.13.0): the release is the maker's word
        return kb.t("version.image-maker", lang, version=choice.version, where=choice.where, text=p.text,
                    source=made[1].split()[0] if made[1] else "knowledge/deploy/framework_images.yaml")
    if choice.basis == "image-untagged" and p is not None and (month := unlisted_vendor_release(p.text)):
        # a vendor's release whose notes read here do not name its vLLM (NGC 26.02): unknown, said as the vendor's release
        return kb.t("version.image-unlisted", lang, version=choice.version, where=choice.where, text=p.text, release=month)
    if choice.basis == "image-dated" and p is not None and (day := vendor_build_day(p.text)):  # the vendor's build, not the tag, dates it
        return kb.t("version.image-built", lang, version=choice.version, where=choice.where, text=p.text, day=day)
    if choice.basis == "build" and p is not None and p.via == "ray-runtime-env":  # a Ray application's own environment
        return kb.t("version.ray-runtime-env", lang, version=choice.version, where=choice.where, text=p.text)
    if choice.basis == "build" and p is not None and (p.via == "script" or p.via.startswith("conda:")):
        # the last install on a launch's path: a script's own `pip install`, or the conda environment it activates
        over = kb.t("version.script-install-over", lang, where=p.replaces[0], text=p.replaces[1]) if p.replaces else ""
        if p.via == "script":
            return kb.t("version.script-install", lang, version=choice.version, where=choice.where, text=p.text, over=over)
        return kb.t("version.conda-env", lang, version=choice.version, where=choice.where, text=p.text, over=over,
                    env=p.via.partition(":")[2])
    if choice.basis == "pin" and p is not None and p.last_install and p.kind == "docs":  # a README's steps, the package then vLLM
        return kb.t("version.docs-installed", lang, version=choice.version, where=choice.where, text=p.text)
    if choice.basis == "pin" and p is not None and p.last_install:  # installed after the project's own install
        over = kb.t("version.script-install-over", lang, where=p.replaces[0], text=p.replaces[1]) if p.replaces else ""
        return kb.t("version.installed-last", lang, version=choice.version, where=choice.where, text=p.text, over=over)
    if choice.basis == "source" and p is not None and p.source == "dev" and choice.among and len(choice.among) == 2:
        # a development version between two releases: judged as the later, P0 only where both agree
        return kb.t("version.source-dev", lang, version=choice.version, where=choice.where, text=p.text,
                    low=choice.among[0], high=choice.among[1])
    if choice.basis == "source" and p is not None and p.source == "fork":  # another owner's vLLM repository
        return kb.t("version.source-fork", lang, version=choice.version, where=choice.where, text=p.text)
    return kb.t(f"version.{choice.basis}", lang, version=choice.version, where=choice.where, text=p.text if p else "")


def memory_assumptions(kb, est: dict, lang: str) -> list[str]:
    """Each assumption of a memory estimate in words; a key without a UI string reads `key = value`."""
    out = []
    for a in est.get("assumptions", []):
        key = f"estimate.assumption.{a['key']}"
        out.append(kb.t(key, lang, value=a["value"]) if key in kb.strings else f"{a['key']} = {a['value']}")
    return out


def hardware_text(kb, hw, lang: str) -> str:
    host = kb.t("hw.host", lang, mem=f"{hw.host_memory_gib:g}") if getattr(hw, "host_memory_gib", None) else ""
    if not hw.gpu:
        return kb.t("hw.none", lang, note=hw.note or "") + host
    g = hw.gpu
    read = kb.t(f"hw.{hw.reason}", lang, asked=hw.detail) if getattr(hw, "reason", None) in ("custom", "nearest") else ""
    return kb.t("hw.gpu", lang, name=g["name"], count=int(g["count"]), mem=memory_label(g), arch=g["arch"], chip=chip_label(g)) + read + host


def build(rep: AuditReport, lang: str = "en", *, advice: bool = True,
          progress: Callable[[str, int], None] | None = None) -> dict[str, Any]:
    """`advice=False` leaves out each site's scenario and tables (None and []): an agent hook
    that only relays findings does not wait for them. `progress("render", n)` is told of each
    site written."""
    for sr, key in zip(rep.sites, baseline.site_keys(rep.sites)):
        sr.key = sr.key or key
    sites = []
    for s in rep.sites:
        sites.append(_site(s, rep, lang, advice))
        if progress is not None:
            progress("render", len(rep.sites))
    doc = clean(document(rep, lang, sites, summary(sites), []))
    reasons = catalogue.Reasons()
    for s in doc["sites"]:  # numbered as cleaned, as engine/report/stream.py numbers them
        s["not_applicable"] = reasons.number(s["not_applicable"])
    doc["catalogue"] = catalogue.cleaned(rep.kb, lang, reasons)
    return doc


def clean(obj: Any) -> Any:
    """Every renderer (text, Markdown, JSON, …) reads what this returns: secrets are hidden once,
    here, and file names that are not UTF-8 are written \\xNN (engine/kb/safe_text.py). The whole
    report and a streamed report's parts (engine/report/stream.py) pass through it alike."""
    return safe_text.clean(obj)


def summary(sites: list[dict[str, Any]], counts: dict[str, int] | None = None) -> dict[str, Any]:
    """The report's `summary` from its site entries (or from `counts`, what a streamed report
    added up site by site: Counts)."""
    c = counts or Counts().add_all(sites).n
    return {"sites": c["sites"], "recommendations": {p: c[p] for p in ("P0", "P1", "P2")}, "findings": c["findings"],
            "unknown": c["unknown"], "own_release": c["own_release"]}


# the bases of a release the site names itself (engine/check/site_release.py): its image's tag or build
# day, its own install — not a folder's pin, the project's default, nor an image whose release is unknown
OWN_BASES = frozenset({"image", "image-dated", "build", "executable"})


class Counts:
    """What `summary` adds up, one site entry at a time."""

    def __init__(self) -> None:
        self.n = {"sites": 0, "P0": 0, "P1": 0, "P2": 0, "findings": 0, "unknown": 0, "own_release": 0}

    def add(self, s: dict[str, Any]) -> None:
        n = self.n
        n["sites"] += 1
        for r in s["recommendations"]:
            if r["priority"] in ("P0", "P1", "P2"):
                n[r["priority"]] += 1
            n["findings"] += r["kind"] == "finding"
        n["findings"] += len(s["findings"])
        n["unknown"] += sum(1 for c in s["checks"] if c["status"] == "unknown")
        # counted per site, so that the built and the streamed report (which writes its header first) agree
        n["own_release"] += (s.get("vllm") or {}).get("basis") in OWN_BASES

    def add_all(self, sites: list[dict[str, Any]]) -> "Counts":
        for s in sites:
            self.add(s)
        return self


def document(rep: AuditReport, lang: str, sites: Any, summary: dict[str, Any],
             checks: Any) -> dict[str, Any]:
    """The report dict around its site entries (`sites`: the list, or a stand-in a streamed
    report replaces) and the check catalogue they refer to (engine/report/catalogue.py)."""
    kb = rep.kb
    hw = rep.hardware
    return {
        "schema_version": SCHEMA_VERSION,
        "tool": {"name": "vllm-kb", "version": tool_version(), "knowledge_version": kb.version},
        "lang": lang,
        "project": {
            "root": str(rep.root),
            "files_scanned": rep.files_scanned,
            "vllm": {"version": rep.default_version.version, "pinned": rep.default_version.pinned,
                     "basis": rep.default_version.basis, "source": _project_version_text(kb, rep.default_version, lang)},
            "pins": [{"file": p.file, "line": p.line, "text": p.text, "package": p.package} for p in _listed(rep.pins)],
            "skipped": [{"file": s.file, "line": s.line, "code": s.code,
                         "reason": kb.t(f"skip.{s.code}", lang) + (f": {s.detail}" if s.detail else "")} for s in rep.skipped],
        },
        "hardware": {
            "source": hw.source, "description": hardware_text(kb, hw, lang), "gpu": _gpu(hw.gpu), "cpu_cores": hw.cpu_cores,
            "driver": hw.driver, "cuda": hw.cuda, "note": hw.note,
        },
        "summary": summary,
        "catalogue": checks,
        "sites": sites,
        # findings that belong to no site (a suppression comment in a project with none)
        **({"findings": [{"code": f.code, "priority": f.priority, "file": f.file, "line": f.line, "message": f.message[lang],
                          "fingerprint": baseline.fingerprint(f.code, f.file, f.subject)} for f in rep.findings]}
           if rep.findings else {}),
    }


def _finding_advice(kb, code: str, lang: str) -> str:
    """What a scan or catalog finding's kind of cause is, in the words SARIF gives its rule (knowledge/i18n.yaml)."""
    key = f"sarif.rule.{code}"
    return kb.t(key, lang) if key in kb.strings else ""


def _where(sr: SiteReport, rule: str, subject: str, loc: tuple[str, int]) -> dict[str, Any]:
    """Where a recommendation or finding is (the setting's line, else the site's) and its
    line-independent fingerprint (engine/check/baseline.py)."""
    return {"location": {"file": loc[0], "line": loc[1]}, "fingerprint": baseline.fingerprint(rule, sr.key, subject)}


def _framework_info(site, lang: str) -> dict | None:
    if site.framework == "none":
        return None
    from vllm_kb.engine.kb import frameworks

    fw = frameworks.get(site.framework)
    return {"id": fw.id, "name": fw.name, "version": site.framework_version, "command": site.framework_command,
            "fixed": site.fixed, "defaults": site.framework_defaults, "engine_elsewhere": site.engine_elsewhere,
            "peer": site.peer, "unmapped": sorted(site.unmapped)}


# Options whose presence turns a feature off: removing one enables what the check is about.
_DISABLER = re.compile(r"^(?:enforce_eager|disable_|no_)|_disable(?:_|$)|^VLLM_DISABLE_", re.I)
_OFF = (False, 0, "0", "false", "False", "off")


def _enables(op: str, target: str, value: Any, site) -> bool:
    """Whether a fix op turns something on: a switch set on, a disabling option set off or
    removed, an environment variable that was "0" removed, a value given to what was unset or
    `auto` (FP8 KV cache, a draft model, quantization)."""
    if op == "container":
        return False  # the container's own option (--ipc=host): not a vLLM feature turned on
    current = (site.env if op in ("env", "unset_env") else site.settings).get(target)
    if op in ("unset", "unset_env"):
        return bool(_DISABLER.search(target)) or (current is not None and current.value in _OFF)
    if op in ("set", "env"):
        if _DISABLER.search(target):
            return value in _OFF
        if value is True or (op == "env" and str(value) in ("1", "true", "True")):
            return True
        if target in ("model", "served_model_name", "tokenizer"):
            return False  # which model, not a feature
        return value not in _OFF and value is not None and (current is None or current.value in (None, "auto", False))
    return False


def _action(fix: list[dict]) -> str | None:
    """enable | remove | change: the word a recommended check's status is shown with."""
    if not fix:
        return None
    if any(f["enables"] for f in fix):
        return "enable"
    if all(f["op"] in ("unset", "unset_env") for f in fix):
        return "remove"
    return "change"


def _gpu(g: dict | None) -> dict | None:
    if not g:
        return None
    return {k: g.get(k) for k in ("name", "id", "arch", "count", "memory_gib", "compute_capability", "fp8", "fp4", "nvlink", "vendor", "gfx")}


def _site(sr: SiteReport, rep: AuditReport, lang: str, advice: bool = True) -> dict[str, Any]:
    kb = rep.kb
    site = sr.site
    checks: list[dict] = []
    na: list[list] = []  # [id, reason] of each plain not-applicable verdict: numbered per report
    for r in sr.results:
        fix = [{"op": op.kind, "target": op.target, "value": v, "enables": _enables(op.kind, op.target, v, site)} for op, v in r.fix]
        kind, e = catalogue.entry(r, fix, _action(fix) if r.status == "recommended" else None, lang)
        if kind == "na":
            na.append(list(e))
        else:
            checks.append(e)
    changes = [c.to_json() for c in sr.changes]
    # whether --fix can write it: a text edit exists in the file as it is now, and so do those of
    # every other change of the same check (engine/fix/apply.py writes a check's changes together)
    can = apply_fixes.fixable(site, sr.changes, rep.ctx.read) if rep.ctx is not None else [False] * len(changes)
    for c, ok in zip(changes, can):
        if c["op"] != "rename":  # a rename's value is the new option name
            c["value"] = _redact(c["target"], c["value"])
        c["fixable"] = ok
    by_check: dict[str, list[dict]] = {}
    for c in changes:
        for cid in c["checks"]:
            by_check.setdefault(cid, []).append(c)
    recs = []
    for r in sr.results:
        if r.status != "recommended":
            continue
        recs.append({"priority": r.priority, "check": r.check.id, "name": r.check.name, "title": r.check.title(lang),
                     "reason": r.reason_text(lang), "advice": r.check.advice(lang), "safe": r.safe, "kind": "check",
                     "file": site.file, "line": site.line, "changes": by_check.get(r.check.id, []),
                     **_where(sr, r.check.id, "", locate(site, r.fix))})
    for f in sr.remarks:
        if f.priority:
            recs.append({"priority": f.priority, "check": f.id, "name": f.code, "title": f.message[lang],
                         "reason": f.message[lang], "advice": _finding_advice(kb, f.code, lang), "safe": f.safe, "kind": "finding", "file": f.file, "line": f.line,
                         "changes": by_check.get(f.id, []) if f.fix else [], **_where(sr, f.code, f.subject, (f.file, f.line))})
    # P0s in the order vLLM raises them (the first one shown is the error the user will see)
    ver = sr.version.version
    recs.sort(key=lambda x: (PRIORITY_ORDER.get(x["priority"], 3),
                             stage_of(kb, x["check"] if x["kind"] == "check" else x["name"], ver) if x["priority"] == "P0" else 0,
                             x["kind"] == "finding", x["check"] if x["kind"] == "check" else "", x["file"], x["line"]))
    scores = []
    for cat in kb.categories:
        cid = cat["id"]
        rs = [r for r in sr.results if r.check.category == cid]
        scores.append({
            "category": cid, "title": cat["title"][lang] if lang in cat["title"] else cat["title"]["en"],
            "score": sum(1 for r in rs if r.status in NO_CHANGE), "total": len(rs),
            "enabled": [r.check.id for r in rs if r.status == "enabled"],
            "recommended": [r.check.id for r in rs if r.status == "recommended"],
            "unknown": [r.check.id for r in rs if r.status == "unknown"],
        })
    facts = sr.facts
    eng = facts.get("engine", {})
    memory = facts.get("memory")
    return {
        "id": site.id, "file": site.file, "line": site.line, "end_line": site.end_line or site.line,
        "syntax": site.syntax, "kind": site.kind, "mode": site.mode,
        "mode_evidence": kb.t("report.evidence", lang, kind=site.kind, where=site.mode_evidence),
        "framework": site.framework,
        "vllm": {"version": sr.version.version, "pinned": sr.version.pinned, "basis": sr.version.basis,
                 "source": version_text(kb, sr.version, lang), "catalog_version": sr.lookup_version,
                 "note": kb.t(f"catalog.{sr.lookup_note}", lang, used=sr.lookup_version) if sr.lookup_note else None},
        "model": facts.get("model"),
        "effective": {k: eng.get(k) for k in KEY_ARGS},
        # a trainer that only talks to a rollout server holds no KV cache of its own
        "memory": dict(memory, assumption_texts=memory_assumptions(kb, memory, lang)) if memory and not site.engine_elsewhere else None,
        "config_file": site.config_file,
        "gpu_request": site.gpu_request,
        "gpu_count": (facts.get("gpu") or {}).get("count"),
        "gpu_from": (facts.get("site") or {}).get("gpu_from"),  # the GPU the deployment names over --gpu's (check/site_gpu.py)
        "gpu_facts": site_hardware(kb, site, facts, rep.hardware, lang),
        "framework_info": _framework_info(site, lang),
        "settings": [{"name": s.name, "value": _redact(s.name, s.value), "resolved": s.resolved, "file": s.file,
                      "line": s.line, "key": s.key, "raw": _redact(s.name, s.raw), "syntax": s.syntax, "note": s.note, "known": s.known}
                     for s in sorted(list(site.settings.values()) + list(site.unknown.values()), key=lambda s: (s.file != site.file, s.file, s.line))],
        "env": [{"name": s.name, "value": _redact(s.name, s.value), "file": s.file, "line": s.line} for s in site.env.values()],
        "scores": scores,
        "score": {"score": sum(x["score"] for x in scores), "total": sum(x["total"] for x in scores)},
        "checks": checks,
        "not_applicable": na,
        "recommendations": recs,
        "changes": changes,
        "after": sr.after,
        "findings": [{"code": r.code, "priority": r.priority, "file": r.file, "line": r.line, "message": r.message[lang],
                      "fingerprint": _where(sr, r.code, r.subject, (r.file, r.line))["fingerprint"]} for r in sr.remarks if not r.priority],
        "suppressed": [x.to_json(lang) for x in sr.suppressed],
        "opaque": [kb.t(f"opaque.{o['code']}", lang, what=o["what"], where=o["where"]) for o in site.opaque],
        # the best-matching scenario template rendered for this site, and the reference tables that apply
        "scenario": scenarios.for_site(sr, kb, lang) if advice else None,
        "tables": tables.for_site(sr, kb, lang) if advice else [],
    }


def _listed(pins: list) -> list:
    """The project's pins as the report lists them: a file's pin read again for the folder of a
    requirements file that includes it (`-r`, engine/scan/req_chains.py) is listed once."""
    seen: set = set()
    out = []
    for p in pins:
        key = (p.file, p.line, p.package, p.text)
        if getattr(p, "included_in", None) is not None and key in seen:
            continue
        seen.add(key)
        out.append(p)
    return out
