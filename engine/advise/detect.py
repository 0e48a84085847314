"""Does a project use vLLM, and where is the evidence? Observations are read without running
anything (ast, the safe YAML loader, tomllib, the shell lexer); knowledge/triggers.yaml decides
which of them count."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vllm_kb.engine.kb import cel, resources
from vllm_kb.engine.advise.observations import (
    NAMES_VLLM,
    Observation,
    collect,
    file_observations,
    observed,
    pin_observations,
    site_observations,
)
from vllm_kb.engine.scan.project import Scan, begin, scan_project, sites_by_file
from vllm_kb.engine.kb.errors import KnowledgeError, Problem
from vllm_kb.engine.kb.knowledge import Text, load_yaml


@dataclass(frozen=True)
class Trigger:
    id: str
    name: str
    title: Text
    when: cel.Predicate


@dataclass(frozen=True)
class Evidence:
    trigger: Trigger
    obs: Observation


@dataclass
class Detection:
    root: Path
    used: bool
    evidence: list[Evidence]
    scan: Scan
    observations: int = 0
    triggers: list[Trigger] = field(default_factory=list)
    complete: bool = True  # False: stopped at the first evidence (detect(…, exhaustive=False))


def load_triggers() -> list[Trigger]:
    doc = load_yaml("triggers.yaml")
    name = resources.display_name("knowledge", "triggers.yaml")
    from vllm_kb.engine.kb import schemas

    errs = schemas.errors("triggers", doc.data)
    if errs:
        raise KnowledgeError([Problem(name, "", schemas.json_path(p), m) for p, m in errs])
    out, seen = [], set()
    for i, raw in enumerate(doc.data["triggers"]):
        if raw["id"] in seen:
            raise KnowledgeError([Problem(name, raw["id"], f"triggers[{i}].id", "duplicate trigger id")])
        seen.add(raw["id"])
        try:
            pred = cel.compile(raw["when"])
        except cel.CelSyntaxError as e:
            raise KnowledgeError([Problem(name, raw["id"], f"triggers[{i}].when", f"CEL syntax error: {e}")]) from None
        out.append(Trigger(raw["id"], raw["name"], Text.of(raw["title"]), pred))
    return out


def detect_scan(sc: Scan, *, triggers: list[Trigger] | None = None) -> Detection:
    """The triggers over every observation of a project already read (an agent hook reads only
    the files it touched)."""
    judge = _Judge(triggers if triggers is not None else load_triggers())
    for ob in collect(sc):
        judge.add(ob)
    return judge.detection(sc, True)


class _Judge:
    """Observations in, evidence out: each signature is evaluated once."""

    def __init__(self, triggers: list[Trigger]):
        self.triggers = triggers
        self.cache: dict[tuple, list[Trigger]] = {}
        self.evidence: list[Evidence] = []
        self.seen: set[tuple] = set()

    def add(self, ob: Observation) -> None:
        k = (ob.kind, ob.name, ob.file, ob.line)
        if k in self.seen:  # a site's env and the script's own assignment are one observation
            return
        self.seen.add(k)
        sig = ob.signature()
        if sig not in self.cache:
            act = cel.Activation(ob.facts())
            self.cache[sig] = [t for t in self.triggers if t.when.evaluate(act).value is True]
        self.evidence += [Evidence(t, ob) for t in self.cache[sig]]

    def detection(self, sc: Scan, complete: bool) -> Detection:
        order = {t.id: i for i, t in enumerate(self.triggers)}
        self.evidence.sort(key=lambda e: (order[e.trigger.id], e.obs.file, e.obs.line, e.obs.name))
        return Detection(sc.root, bool(self.evidence), self.evidence, sc, len(self.seen), self.triggers, complete)


def detect(path: str | Path, *, triggers: list[Trigger] | None = None, exhaustive: bool = True) -> Detection:
    """Whether the project uses vLLM, with the evidence. Exhaustive: every observation of every
    file. Otherwise the cheapest decisive evidence first — dependency pins, then file by file the
    launch sites and what the file says — and a stop at the first file that gives some; files
    that never name vLLM are not parsed for observations (no trigger fires on one: see
    tests/test_frameworks.py), so the answer never costs more than an audit's own scan."""
    if exhaustive:
        return detect_scan(scan_project(path), triggers=triggers)
    triggers = triggers if triggers is not None else load_triggers()
    judge = _Judge(triggers)
    sc = begin(path)
    for ob in pin_observations(sc.pins):
        judge.add(ob)
    if judge.evidence:
        return judge.detection(sc, False)
    for _rel, found in sites_by_file(sc):
        sc.sites += found
        for ob in site_observations(found):
            judge.add(ob)
        if judge.evidence:
            return judge.detection(sc, False)
    for rel in sc.files:
        text = sc.ctx.read(rel) if observed(rel) else None
        if text is not None and NAMES_VLLM.search(text):
            for ob in file_observations(sc, rel):
                judge.add(ob)
            if judge.evidence:
                return judge.detection(sc, False)
    return judge.detection(sc, True)


# -- what a person or an agent reads --------------------------------------------------------

def record(det: Detection, lang: str) -> dict[str, Any]:
    """The detection as plain data (JSON output, MCP tool), texts in `lang`."""
    from vllm_kb.engine.kb.knowledge import load

    kb = load()
    by_trigger: dict[str, list[Evidence]] = {}
    for e in det.evidence:
        by_trigger.setdefault(e.trigger.id, []).append(e)
    from vllm_kb.engine.kb.redact import redact

    return redact({
        "root": str(det.root),
        "used": det.used,
        "summary": kb.t("detect.used" if det.used else "detect.not_used", lang, n=len(det.evidence)),
        "triggers": [
            {"id": t.id, "name": t.name, "title": t.title(lang),
             "evidence": [{"file": e.obs.file, "line": e.obs.line, "kind": e.obs.kind, "what": e.obs.what}
                          for e in by_trigger[t.id]]}
            for t in det.triggers if t.id in by_trigger
        ],
        "sites": [{"id": s.id, "kind": s.kind, "mode": s.mode, "framework": s.framework, "syntax": s.syntax}
                  for s in det.scan.sites],
        "files_scanned": len(det.scan.files),
        "observations": det.observations,
        **({} if det.complete else {"complete": False}),
        "skipped": [{"file": s.file, "line": s.line, "code": s.code,
                     "reason": kb.t(f"skip.{s.code}", lang) + (f": {s.detail}" if s.detail else "")} for s in det.scan.ctx.skipped],
    })
