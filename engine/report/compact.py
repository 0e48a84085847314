"""A Markdown report of many sites kept readable: a recommendation another site already carries word
for word is named, not repeated, and what repeats is listed once with its sites. The JSON report
stays complete; only what a person reads is capped (eval109: 319 GPUStack catalog specs made 13 MB)."""
from __future__ import annotations

# above this many sites the per-site tables of every check, the scenarios and the tables are left out
COMPACT_FROM = 12
# the sites one repeated recommendation names before "and N more"
_NAMED = 8


def _key(rec: dict) -> tuple:
    return (rec.get("priority"), rec.get("kind"), rec.get("check"), rec.get("title"), rec.get("reason"))


def compact(report: dict) -> dict:
    """The report with `compact` and `repeated` set and each later copy of a recommendation marked
    `same_as` (the number of the first site that carries it); unchanged below COMPACT_FROM sites."""
    sites = report.get("sites") or []
    if len(sites) < COMPACT_FROM:
        return {**report, "compact": False, "repeated": []}
    first: dict[tuple, int] = {}
    seen: dict[tuple, list[str]] = {}
    out_sites = []
    for i, s in enumerate(sites, 1):
        recs = []
        for rec in s.get("recommendations") or []:
            k = _key(rec)
            seen.setdefault(k, []).append(f"{rec.get('file') or s.get('file')}:{rec.get('line') or s.get('line')}")
            if k in first:
                rec = {**rec, "same_as": first[k]}
            else:
                first[k] = i
            recs.append(rec)
        out_sites.append({**s, "recommendations": recs})
    repeated = []
    for k, at in seen.items():
        if len(at) < 2:
            continue
        rec = next(r for s in out_sites for r in s["recommendations"] if _key(r) == k and "same_as" not in r)
        places = list(dict.fromkeys(at))  # two sites of one line (a spec read twice) named once
        repeated.append({"priority": k[0], "check": rec.get("check"), "title": rec.get("title"), "n": len(at),
                         "where": places[:_NAMED], "more": max(0, len(places) - _NAMED)})
    repeated.sort(key=lambda r: (str(r["priority"]), -r["n"], str(r["check"])))
    return {**report, "sites": out_sites, "compact": True, "repeated": repeated}
