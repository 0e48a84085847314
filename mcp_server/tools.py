"""What each MCP tool does, on top of the engine. The functions take already-confined paths
and plain values and return the typed results of models.py (the audit returns the report
dict itself); server.py turns them into MCP tools. Errors a user can act on — an unknown
check, GPU or category, a missing path — leave as ToolError with the engine's own message."""
from __future__ import annotations

import copy
import functools
from pathlib import Path
from typing import Any, Callable, Sequence, TypeVar

from mcp.server.mcpserver.exceptions import ToolError

from vllm_kb.engine import audit as audit_mod
from vllm_kb.engine.kb import catalog as catalog_mod
from vllm_kb.engine.kb import machine
from vllm_kb.engine.check import memory
from vllm_kb.engine.kb import models
from vllm_kb.engine.kb.errors import KnowledgeError, UsageError
from vllm_kb.engine.kb.knowledge import Knowledge, Registry, load
from vllm_kb.engine.report import model as report_model
from vllm_kb.engine.kb.versions import try_parse
from vllm_kb.engine.report import check_docs as records
from vllm_kb.engine.kb.safe_text import shown

from vllm_kb.engine.report import summary as bounded
from vllm_kb.mcp_server import models as m

F = TypeVar("F", bound=Callable[..., Any])


def user_errors(fn: F) -> F:
    """Turn the engine's "you asked for something impossible" errors into tool errors, which
    the model reads and can correct; anything else stays a crash the SDK reports as such."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except UsageError as e:
            raise ToolError(str(e)) from e
        except KnowledgeError as e:
            raise ToolError(f"the knowledge base is invalid: {e}") from e

    return wrapper  # type: ignore[return-value]


def redacted(fn: F) -> F:
    """Results that carry project content leave with every secret hidden (engine/kb/redact.py),
    file names displayable and control characters escaped (engine/kb/safe_text.py): the dict as
    it is, a typed result through its JSON form."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        out = fn(*args, **kwargs)
        if isinstance(out, dict):
            return shown(out)
        if hasattr(out, "model_dump") and hasattr(type(out), "model_validate"):
            return type(out).model_validate(shown(out.model_dump()))
        return out

    return wrapper  # type: ignore[return-value]


def with_checks(kb: Knowledge, keys: Sequence[str]) -> Knowledge:
    """The knowledge base seen through a selection of checks. The engine evaluates, scores and
    plans fixes from `kb.checks`, so narrowing that one registry keeps the whole report
    consistent (scores, changes and diffs cover only the selected checks)."""
    chosen = []
    for key in keys:
        c = kb.checks.get(key)  # UsageError for an unknown id or name
        if c not in chosen:
            chosen.append(c)
    order = {c.id: i for i, c in enumerate(kb.checks)}
    view = copy.copy(kb)  # shares the loaded documents; only `checks` (a cached property) differs
    view.__dict__["checks"] = Registry(sorted(chosen, key=lambda c: order[c.id]))
    return view


@user_errors
@redacted
def audit(path: Path, *, gpu: str, vllm_version: str | None, lang: str, select: Sequence[str] | None) -> dict[str, Any]:
    kb = load()
    if select:
        kb = with_checks(kb, select)
    rep = audit_mod.audit(path, gpu=gpu, vllm_version=vllm_version, kb=kb)
    return report_model.build(rep, lang)


@user_errors
@redacted
def detect(path: Path, lang: str = "en", *, exhaustive: bool = False, cursor: str | None = None) -> m.Detection:
    from vllm_kb.engine.advise import detect as detect_mod

    det = detect_mod.detect(path, exhaustive=exhaustive)
    rec = detect_mod.record(det, lang)
    evidence = [m.Evidence(trigger=f"{t['id']} {t['name']}", title=t["title"], file=e["file"], line=e["line"], what=e["what"])
                for t in rec["triggers"] for e in t["evidence"]]
    sites = [m.DetectedSite(file=s.file, line=s.line, kind=s.kind, syntax=s.syntax, mode=s.mode, framework=s.framework)
             for s in det.scan.sites]
    pins = [m.Pin(file=p.file, line=p.line, text=p.text) for p in det.scan.pins if p.package == "vllm" or "vllm" in p.extras]
    # within the answer budget: the evidence a page at a time, the first sites and pins (with their
    # totals; `audit` lists every site)
    page_ev, more_ev = bounded.take([e.model_dump() for e in evidence], bounded.BUDGET // 2, bounded.start_of(cursor))
    page_si, _ = bounded.take([s.model_dump() for s in sites], bounded.BUDGET // 4)
    page_pi, _ = bounded.take([p.model_dump() for p in pins], bounded.BUDGET // 8)
    return m.Detection(
        path=str(path),
        uses_vllm=det.used,
        summary=rec["summary"],
        evidence=page_ev, evidence_total=len(evidence), sites=page_si, sites_total=len(sites), pins=page_pi,
        complete=det.complete, next_cursor=bounded.cursor_of(more_ev),
        files_scanned=len(det.scan.files),
        method="the trigger rules of knowledge/triggers.yaml over what the files say (imports, dependency pins, "
               "launch commands, framework backends, vLLM configuration keys, VLLM_ variables); "
               "documentation and comments do not count",
    )


@user_errors
def explain_check(key: str, lang: str) -> m.CheckRecord:
    kb = load()
    return m.CheckRecord.model_validate(records.record(kb.checks.get(key), kb, lang))


@user_errors
def list_checks(category: str | None, lang: str) -> m.CheckList:
    kb = load()
    if category is not None:
        cid = category.strip().upper()
        known = [c["id"] for c in kb.categories]
        if cid not in known:
            raise UsageError(f"no such category: {category!r}; categories are {', '.join(known)}")
        checks = kb.checks.in_category(cid)
    else:
        checks = list(kb.checks)
    return m.CheckList(checks=[m.CheckSummary(**records.summary(c, lang)) for c in checks])


@user_errors
def match_scenario(description: str, *, model: str | None, gpu: str | None, mode: str | None, framework: str | None,
                   syntax: str | None, vllm_version: str | None, limit: int, lang: str) -> m.ScenarioResult:
    """The scenario templates that fit a workload, each rendered for its model, GPUs and syntax.
    Explicit arguments win over what the description says; what neither gives stays unknown
    (a requirement that needs it makes the match `partial`)."""
    from vllm_kb.engine.advise import scenarios, tables

    kb = load()
    cat = catalog_mod.load()
    if vllm_version is not None and try_parse(vllm_version) is None:
        raise UsageError(f"vllm_version {vllm_version!r} is not a version number")
    read = scenarios.read_description(description or "", kb)
    given = {"model": model, "gpu": gpu, "mode": mode, "framework": framework, "vllm_version": vllm_version,
             "syntax": {"cli": "cli", "python": "python-call", "yaml": "yaml-config"}.get(syntax or "", syntax)}
    use: dict[str, Any] = {k: v if v is not None else read.get(k) for k, v in given.items()}
    use["model"] = use["model"] or "<model>"
    use["gpu"] = use["gpu"] or "auto"
    use["mode"] = use["mode"] or "standalone_serve"
    use["framework"] = use["framework"] or "none"
    use["vllm_version"] = use["vllm_version"] or cat.newest
    ctx = scenarios.context_for(model=use["model"], gpu=use["gpu"], mode=use["mode"], vllm_version=use["vllm_version"],
                                framework=use["framework"], syntax=use["syntax"], description=description or "", kb=kb)
    hw = machine.resolve(kb.gpus, use["gpu"])
    understood = dict(use, syntax=ctx.site.syntax if not ctx.site.config_file else "yaml-config",
                      from_description=sorted(k for k in read if given.get(k) is None))
    found = scenarios.match(ctx)[:limit]
    out = []
    for x in found:
        obj = scenarios.report_object(x, ctx, lang)
        out.append(m.ScenarioMatch(seed=x.scenario.seed, corrections=[c(lang) for c in x.scenario.corrections],
                                   **{k: obj[k] for k in ("id", "name", "title", "description", "score", "status", "why",
                                                          "missing", "plan", "settings", "env", "blocks", "notes",
                                                          "blocked", "by_framework")}))
    summary = kb.t("scenario.mcp_understood", lang, model=use["model"], gpu=report_model.hardware_text(kb, hw, lang),
                   mode=use["mode"], framework=use["framework"], version=use["vllm_version"])
    if not out:
        summary += " " + kb.t("scenario.mcp_none", lang)
    return m.ScenarioResult(understood=understood, summary=summary, hardware=report_model.hardware_text(kb, hw, lang),
                            scenarios=out, tables=tables.for_facts(ctx.facts, kb, lang, ctx.version))


def not_available(what_key: str, lang: str) -> m.NotAvailable:
    kb = load()
    return m.NotAvailable(reason=kb.t("mcp.not_available", lang, what=kb.t(what_key, lang), version=kb.version),
                          instead=["audit", "explain_check", "list_checks"])


@user_errors
@redacted
def estimate_memory(model: str, *, gpu: str, vllm_version: str | None, lang: str,
                    engine_args: dict[str, Any]) -> m.MemoryEstimate:
    kb = load()
    cat = catalog_mod.load()
    if vllm_version is not None and try_parse(vllm_version) is None:
        raise UsageError(f"vllm_version {vllm_version!r} is not a version number")
    hardware = machine.resolve(kb.gpus, gpu)
    lookup = cat.resolve(vllm_version or cat.newest).version
    # The engine arguments as the audit builds them: the release's declared defaults, then
    # what the caller sets (None means "not set").
    engine = {k: v for k, v in cat.defaults(lookup).items() if v is not None}
    engine.update({k: v for k, v in engine_args.items() if v is not None})
    facts = models.model_facts(model, kb.models, kb.doc("models.yaml").data.get("quantized_markers", []))
    gpu_facts = hardware.facts().get("gpu")
    est = dict(memory.estimate(facts, gpu_facts or {}, engine, vllm_version=lookup) or {})
    known = bool(est)
    note = ("; ".join(report_model.memory_assumptions(kb, est, lang)) if known else kb.t("mcp.memory_unknown", lang))
    shown = {k: engine.get(k) for k in report_model.KEY_ARGS if k in engine} | {
        k: v for k, v in engine_args.items() if v is not None}
    return m.MemoryEstimate(model=facts, gpu=gpu_facts, engine=shown, known=known, estimate=est, note=note)


@user_errors
@redacted
def diagnose(path: Path | None, *, symptom: str | None, error: str | None, gpu: str, site: str | None,
             answers: dict[str, Any] | None, vllm_version: str | None, lang: str,
             cursor: str | None = None) -> m.DiagnoseResult:
    from vllm_kb.engine import diagnosis
    from vllm_kb.engine.report.diagnosis import record

    res = diagnosis.diagnose(path, symptom=symptom, error=error, gpu=gpu, site=site, answers=answers,
                             vllm_version=vllm_version)
    rec = record(res, lang)
    out = {k: rec[k] for k in m.DiagnoseResult.model_fields if k in rec}
    # the site diagnoses a page at a time, within the answer budget
    page, more = bounded.take(rec["diagnoses"], bounded.BUDGET - bounded.size(
        {k: v for k, v in out.items() if k != "diagnoses"}), bounded.start_of(cursor))
    out.update(diagnoses=page, diagnoses_total=len(rec["diagnoses"]), next_cursor=bounded.cursor_of(more))
    return m.DiagnoseResult.model_validate(out)


@user_errors
def gpu_info(spec: str, lang: str) -> m.GpuInfo:
    kb = load()
    hw = machine.resolve(kb.gpus, spec)
    return m.GpuInfo(source=hw.source, description=report_model.hardware_text(kb, hw, lang), gpu=hw.gpu,
                     cpu_cores=hw.cpu_cores, driver=hw.driver, cuda=hw.cuda, note=hw.note, devices=hw.devices)
