"""What every site of a report shares is written once (schema_version 2): the report's `catalogue`
holds each check's name, category and title, and the reasons it gave for not applying; a site's
`checks` holds only its verdicts that say something about it, and its `not_applicable` maps the
other checks to their reason in the catalogue. A site entry of schema_version 1 carried every
check in full, most of them `not_applicable` with the same words at every site: two thirds of
vLLM's own tree's 47 MB report.

`site_checks` and `expand` read a report of this version back into the per-site view of
schema_version 1, entry for entry (tests/test_report_catalogue.py holds them to it on every
realcase, example and fixture)."""
from __future__ import annotations

from typing import Any, Iterable

from vllm_kb.engine.kb import safe_text

_OWN = ("name", "category", "title")  # what the catalogue holds of a check


def entry(r, fix: list[dict], action: str | None, lang: str) -> tuple[str, Any]:
    """A check's verdict at a site: ("na", (id, reason)) for a not-applicable one that says
    nothing but its reason, else ("check", its entry in the site's `checks`)."""
    if r.status == "not_applicable" and not fix and not r.missing and not r.safe:
        return "na", (r.check.id, r.reason_text(lang))
    return "check", {"id": r.check.id, "status": r.status, "priority": r.priority if r.status == "recommended" else None,
                     "reason": r.reason_text(lang), "missing": list(r.missing), "fix": fix, "safe": r.safe,
                     "action": action}


class Reasons:
    """Each check's not-applicable reasons, numbered in the order the sites first give them (the
    order sites are written in, so a streamed report numbers them as a built one does)."""

    def __init__(self) -> None:
        self.by_check: dict[str, dict[str, int]] = {}

    def number(self, pairs: Iterable[tuple[str, str] | list]) -> dict[str, int]:
        out = {}
        for cid, reason in pairs:
            seen = self.by_check.setdefault(cid, {})
            out[cid] = seen.setdefault(reason, len(seen))
        return out


def catalogue(kb, lang: str, reasons: Reasons) -> list[dict[str, Any]]:
    """Every check of the knowledge the audit ran with, in its order (a site's `checks` follow it;
    a list, as the order of an object's keys is not kept by every JSON reader)."""
    out = []
    for c in kb.checks:
        item: dict[str, Any] = {"id": c.id, "name": c.name, "category": c.category, "title": c.title(lang)}
        said = reasons.by_check.get(c.id)
        if said:
            item["not_applicable"] = list(said)
        out.append(item)
    return out


# Each check's own part of its entry, cleaned (engine/kb/safe_text.py) once per knowledge and
# language: what the catalogue's ~280 entries hold but their reasons is the same in every report,
# and cleaning it again was two thirds of the cleaning of a small project's report.
_BASE: dict[tuple[int, str], tuple[Any, list[dict[str, Any]]]] = {}


def cleaned(kb, lang: str, reasons: Reasons) -> list[dict[str, Any]]:
    """`safe_text.clean(catalogue(kb, lang, reasons))`, entry for entry: a dict is cleaned key by key,
    and whether a record's values are hidden turns on its name alone, which the cached part holds
    (tests/test_report_catalogue.py compares the two)."""
    held = _BASE.get((id(kb), lang))
    if held is None or held[0] is not kb:
        parts = [safe_text.clean({"id": c.id, "name": c.name, "category": c.category, "title": c.title(lang)})
                 for c in kb.checks]
        held = _BASE[(id(kb), lang)] = (kb, parts)
    out = []
    for c, base in zip(kb.checks, held[1]):
        said = reasons.by_check.get(c.id)
        if said:
            item = safe_text.clean({**base, "not_applicable": list(said)}) if safe_text.secret_record(base) \
                else {**base, "not_applicable": safe_text.clean(list(said))}
        else:
            item = dict(base)
        out.append(item)
    return out


def by_id(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The catalogue's entries by check id."""
    return {item["id"]: item for item in report["catalogue"]}


def site_checks(report: dict[str, Any], site: dict[str, Any]) -> list[dict[str, Any]]:
    """The site's `checks` as schema_version 1 wrote them: every check, in the catalogue's order,
    with its name, category and title."""
    na = site.get("not_applicable") or {}
    own = {c["id"]: c for c in site["checks"]}
    out = []
    for item in report["catalogue"]:
        cid = item["id"]
        c = own.get(cid)
        if c is not None:
            out.append({"id": cid, **{k: item[k] for k in _OWN}, **{k: v for k, v in c.items() if k != "id"}})
        elif cid in na:
            out.append({"id": cid, **{k: item[k] for k in _OWN}, "status": "not_applicable", "priority": None,
                        "reason": item["not_applicable"][na[cid]], "missing": [], "fix": [], "safe": False, "action": None})
    return out


def with_reasons(report: dict[str, Any], site: dict[str, Any], index: dict | None = None) -> dict[str, Any]:
    """The site entry readable without the catalogue: its `not_applicable` maps each check to
    its reason (an answer that pages through sites carries no catalogue)."""
    cat = index if index is not None else by_id(report)
    na = site.get("not_applicable") or {}
    return {**site, "not_applicable": {cid: cat[cid]["not_applicable"][i] for cid, i in na.items()}}


def named(report: dict[str, Any], site: dict[str, Any]) -> dict[str, Any]:
    """The site entry with its `checks` as schema_version 1 wrote them and no `not_applicable`."""
    out = {}
    for k, v in site.items():
        if k == "checks":
            out[k] = site_checks(report, site)
        elif k != "not_applicable":
            out[k] = v
    return out


def expand(report: dict[str, Any]) -> dict[str, Any]:
    """The report as schema_version 1 wrote it (what a reader of that version expects)."""
    if report.get("schema_version") == 1:
        return report
    out = {k: v for k, v in report.items() if k != "catalogue"}
    out["schema_version"] = 1
    out["sites"] = [named(report, s) for s in report["sites"]]
    return out
