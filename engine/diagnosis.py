"""One diagnosis, end to end — orchestration only: audit the project (engine/audit.py), walk the
symptom's decision tree over each site's facts (engine/advise/diagnose), plan the leaves'
changes (engine/fix). Without a project, the tree is walked over the hardware alone."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from vllm_kb.engine import audit as audit_mod
from vllm_kb.engine.advise.diagnose import launch
from vllm_kb.engine.advise.diagnose.tree import match_text, parse_answers, tree
from vllm_kb.engine.advise.diagnose.walk import Diagnosis, Result, diagnose_facts
from vllm_kb.engine.kb import catalog as catalog_mod
from vllm_kb.engine.kb import machine
from vllm_kb.engine.kb import traceback_text
from vllm_kb.engine.kb.errors import UsageError
from vllm_kb.engine.kb.knowledge import Knowledge, load


# the symptoms of a server that serves (its throughput, its latencies), which a failed launch does not have
_RUNNING = ("throughput", "ttft", "itl")


def diagnose(path: str | Path | None, *, symptom: str | None = None, error: str | None = None, gpu: str | None = "auto",
             site: str | None = None, answers=None, vllm_version: str | None = None, nvml=None,
             kb: Knowledge | None = None) -> Result:
    """Walk the tree of `symptom` (or of the symptom `error` maps to) for each site of the project
    at `path` (or the one `site` names, FILE[:LINE]); without a path, for the hardware alone. An
    error text that is a launch failure's own wording also names the launch check that predicts
    it, with that check's verdict and change at each site."""

    kb = kb or load()
    t = tree(kb)
    matched = None
    observed: dict[str, Any] = {}
    hits = launch.recognise(kb, error, vllm_version) if error else []
    if error:
        parsed = traceback_text.parse(error)
        # the decision tree's words are looked for in the exception lines first (a log's INFO
        # lines mention "out of memory" settings long before the real error)
        hit = (match_text(t, "\n".join(parsed.exceptions)) if parsed.exceptions else None) or match_text(t, parsed.text)
        if hit is not None and hit[0] in _RUNNING and symptom is None and any(h.kind in ("check", "finding") for h in hits):
            # a launch refused in vLLM's own words never served: a word of the running server's symptoms
            # inside its text ("Reasoning preempted" in a refused option's value) says nothing of them
            hit = None
        if hit is None and symptom is None and not hits:
            raise UsageError("no symptom recognised in the error text (no launch check's wording or words either); give one of "
                             + ", ".join(t.symptoms))
        if hit is not None:
            if symptom is None or symptom == hit[0]:
                symptom = hit[0]
                observed.update(hit[1])
            matched = (hit[2], traceback_text.echo(parsed, error))
        elif hits:
            matched = (hits[0].id, traceback_text.echo(parsed, error))
    if symptom is None and not hits:
        raise UsageError("give a symptom (" + ", ".join(t.symptoms) + ") or an error text")
    sym = t.symptom(symptom) if symptom is not None else None
    observed.update(parse_answers(t, answers))
    cat = catalog_mod.load()
    if path is None:
        hardware = machine.resolve(kb.gpus, gpu, nvml)
        version = vllm_version or cat.newest
        facts: dict[str, Any] = {"vllm": {"version": version, "pinned": False}, **hardware.facts()}
        out = [diagnose_facts(sym, None, facts, observed, {}, cat.resolve(version).version, cat, kb, None)] if sym else []
        return Result(sym, observed, matched, out, hardware, None, t, kb, hits)
    rep = audit_mod.audit(path, gpu=gpu, vllm_version=vllm_version, nvml=nvml, kb=kb)
    reports = _select(rep.sites, site)
    for h in hits:
        launch.verdicts(h, reports)
    # a wording several checks share: the one that fails at one of this project's sites first
    hits.sort(key=lambda h: not any(v.status == "recommended" for v in h.sites))
    out = []
    ids = {sr.site.id for sr in rep.sites}
    for sr in reports if sym is not None else []:
        assert sym is not None  # the loop runs only with a symptom
        if sym.modes and sr.site.mode not in sym.modes:
            out.append(Diagnosis(sym, sr, sr.facts, None, [], [], [], "diagnose.skipped_mode", {"mode": sr.site.mode}))
            continue
        if sr.site.engine_elsewhere and sr.site.peer in ids:
            out.append(Diagnosis(sym, sr, sr.facts, None, [], [], [], "diagnose.skipped_peer", {"peer": sr.site.peer}))
            continue
        results = {r.check.id: r for r in sr.results}
        out.append(diagnose_facts(sym, sr, sr.facts, observed, results, sr.lookup_version, cat, kb, rep.root))
    return Result(sym, observed, matched, out, rep.hardware, rep.root, t, kb, hits)


def _select(reports: list, site: str | None) -> list:
    if not site:
        return list(reports)
    file, _, line = site.rpartition(":") if re.search(r":\d+$", site) else (site, "", "")
    hits = [sr for sr in reports if sr.site.file == file.removeprefix("./") and (not line or sr.site.line == int(line))]
    if not hits:
        known = ", ".join(sr.site.id for sr in reports) or "none"
        raise UsageError(f"no launch site at {site!r}; sites: {known}")
    return hits
