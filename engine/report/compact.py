"""A Markdown report of many sites kept readable: a recommendation another site already carries word
for word is named, not repeated, and what repeats is listed once with its sites. The JSON report
stays complete; only what a person reads is capped (eval109: 319 GPUStack catalog specs made 13 MB).

Below COMPACT_FROM sites the same holds for a recommendation whose words and changes are both the
same — one install, one cause: General-Reasoner's unpinned transformers under vLLM 0.8.3 was told in
full at each of its 7 sites (eval113), with the one pin to write in one file each time; it is told once,
with its sites, and each later site names the first."""
from __future__ import annotations

# above this many sites the per-site tables of every check, the scenarios and the tables are left out
COMPACT_FROM = 12
# the sites one repeated recommendation names before "and N more"
_NAMED = 8


def _key(rec: dict) -> tuple:
    return (rec.get("priority"), rec.get("kind"), rec.get("check"), rec.get("title"), rec.get("reason"))


def compact(report: dict) -> dict:
    """The report with `compact` and `repeated` set and each later copy of a recommendation marked
    `same_as` (the number of the first site that carries it); below COMPACT_FROM sites only a copy with
    the same changes too, and `compact` stays False (every site keeps its tables)."""
    sites = report.get("sites") or []
    many = len(sites) >= COMPACT_FROM
    key = _key if many else _same_cause
    first: dict[tuple, int] = {}
    seen: dict[tuple, list[str]] = {}
    out_sites = []
    for i, s in enumerate(sites, 1):
        recs = []
        for rec in s.get("recommendations") or []:
            k = key(rec)
            # where the setting is written (a KAITO ConfigMap's key), not the site's line that reads it
            loc = rec.get("location") or {}
            file, line = loc.get("file") or rec.get("file") or s.get("file"), loc.get("line") or rec.get("line") or s.get("line")
            seen.setdefault(k, []).append(f"{file}:{line}")
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
        rec = next(r for s in out_sites for r in s["recommendations"] if key(r) == k and "same_as" not in r)
        places = list(dict.fromkeys(at))  # two sites of one line (a spec read twice) named once
        repeated.append({"priority": k[0], "check": rec.get("check"), "title": rec.get("title"), "n": len(at),
                         "where": places[:_NAMED], "more": max(0, len(places) - _NAMED)})
    repeated.sort(key=lambda r: (str(r["priority"]), -r["n"], str(r["check"])))
    return {**report, "sites": out_sites, "compact": many, "repeated": repeated}


def _same_cause(rec: dict) -> tuple:
    """The words and the changes: a later site whose change is another file's or line's keeps its own. A
    pin with no line is one no file holds yet (`transformers<5` for an install the project does not
    write down): it is named at each site's own file, the same pin wherever it is named."""
    changes = tuple(tuple(sorted((k, str(v)) for k, v in c.items() if not (k == "file" and _unplaced_pin(c))))
                    for c in rec.get("changes") or ())
    return (*_key(rec), changes)


def _unplaced_pin(c: dict) -> bool:
    return c.get("op") == "pin" and c.get("line") is None and not c.get("fixable")


def same_as(sites: list[dict]) -> dict[tuple[int, int], int]:
    """(site number, recommendation index) → the number of the first site that carries it word for word
    with the same changes (the terminal report's reading of the rule above)."""
    first: dict[tuple, int] = {}
    out: dict[tuple[int, int], int] = {}
    for i, s in enumerate(sites, 1):
        for j, rec in enumerate(s.get("recommendations") or []):
            k = _same_cause(rec)
            if k in first and first[k] != i:
                out[(i, j)] = first[k]
            else:
                first.setdefault(k, i)
    return out
