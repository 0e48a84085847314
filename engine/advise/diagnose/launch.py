"""A launch failure recognised by its error text: which launch check (or catalog finding) says
why vLLM refused to start, and — for each site of the audited project — that check's verdict and
the change that makes the launch start, in the site's own syntax."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from vllm_kb.engine.kb import error_text
from vllm_kb.engine.kb.knowledge import Knowledge

# Findings recognised by argparse's and Python's words (engine/check/catalog_findings.py,
# engine/scan/site.py). argparse says "unrecognized arguments" both for an option the release
# lacks and for a stray positional, so one wording stands for a family of codes.
FAMILIES = {"not-in-version": ("not-in-version", "unknown-option", "stray-positional"),
            "value-not-in-version": ("value-not-in-version", "value-unknown", "value-unlisted")}
FINDING_TEXTS = {
    "not-in-version": [
        {"text": "unrecognized arguments: {args}", "vllm": ">=0.4.0", "origin": "argparse"},
        {"text": "__init__() got an unexpected keyword argument {name}", "vllm": ">=0.4.0", "origin": "python"},
    ],
    "value-not-in-version": [
        {"text": "argument {flag}: invalid choice: {value} (choose from {choices})", "vllm": ">=0.4.0", "origin": "argparse"},
    ],
}


@dataclass
class SiteVerdict:
    site: Any  # report.results.SiteReport
    status: str
    priority: str | None
    reason: dict[str, str]
    changes: list  # fix.changes.Change, the ones this check or finding asks for


@dataclass
class LaunchHit:
    id: str  # a check id (L30) or a finding code (not-in-version)
    kind: str  # check | finding
    match: error_text.Match
    sites: list[SiteVerdict] = field(default_factory=list)


class _Finding:
    """A finding code dressed as a check for the matcher (id + error_text)."""

    def __init__(self, code: str, texts: list[dict]):
        self.id, self.error_text = code, tuple(texts)


class _Pool:
    def __init__(self, kb: Knowledge):
        self.checks = list(kb.checks) + [_Finding(c, t) for c, t in FINDING_TEXTS.items()]


_POOLS: dict[int, tuple[Knowledge, _Pool]] = {}


def recognise(kb: Knowledge, text: str, version: str | None = None) -> list[LaunchHit]:
    """Launch checks and findings whose vLLM wording occurs in `text`, best first: the whole
    wording before an opening, then the most literal text matched — so a check's own words
    ("unrecognized arguments: --enable-reasoning") outrank argparse's generic ones. With a
    project, diagnose() then puts first what fails at one of its sites."""
    hit = _POOLS.get(id(kb))
    if hit is None or hit[0] is not kb:
        hit = _POOLS[id(kb)] = (kb, _Pool(kb))
    matches = error_text.match(hit[1], text, version)
    return [LaunchHit(m.check_id, "finding" if m.check_id in FINDING_TEXTS else "check", m) for m in matches]


def verdicts(hit: LaunchHit, reports: list) -> None:
    """Fill `hit.sites` from each site's audit: the check's result, or the site's findings of that
    code, with the changes credited to it."""
    for sr in reports:
        if hit.kind == "check":
            r = next((x for x in sr.results if x.check.id == hit.id), None)
            if r is None:
                continue
            reason = {lang: r.reason_text(lang) for lang in ("en", "zh")}
            changes = [c for c in sr.changes if hit.id in c.checks]
            hit.sites.append(SiteVerdict(sr, r.status, r.priority, reason, changes))
            continue
        found = [f for f in sr.remarks if f.code in FAMILIES.get(hit.id, (hit.id,))]
        if not found:
            hit.sites.append(SiteVerdict(sr, "not_applicable", None, {"en": "", "zh": ""}, []))
            continue
        ids = {f.id for f in found}
        changes = [c for c in sr.changes if ids & set(c.checks)]
        reason = {lang: " ".join(f.message[lang] for f in found) for lang in ("en", "zh")}
        hit.sites.append(SiteVerdict(sr, "recommended", found[0].priority, reason, changes))
