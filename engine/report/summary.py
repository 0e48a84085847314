"""The report in brief, for whoever cannot hold all of it (an agent, `--format summary`): counts
of sites, modes and verdicts, every P0 and P1 with file:line and its change in one line, one line
per site — within `BUDGET` characters whatever the number of sites (about 15,000 tokens at four
characters a token; coding agents cut a tool answer at about 25,000). What does not fit is
counted and marked, for the pages of the MCP `audit_details` tool or the full JSON report."""
from __future__ import annotations

import json
from typing import Any, Callable, Iterable

from vllm_kb.engine.kb.errors import UsageError

BUDGET = 60_000  # characters of structured content per answer
PRIORITIES = ("P0", "P1")


def size(obj: Any) -> int:
    return len(json.dumps(obj, ensure_ascii=False, separators=(",", ":"), default=str))


# What a page leaves out of an item that alone exceeds the budget, largest first.
_SHED = ("tables", "scenario", "after", "checks", "not_applicable", "settings", "env", "changes", "recommendations")


def fit(item: Any, budget: int = BUDGET) -> Any:
    """An item within the budget: a site too large for one answer loses its largest parts,
    named in `omitted` (the report resource has them)."""
    if not isinstance(item, dict) or size(item) <= budget:
        return item
    out, omitted = dict(item), []
    for key in _SHED:
        if key in out:
            out.pop(key)
            omitted.append(key)
            if size(out) <= budget - 200:
                break
    out["omitted"] = omitted
    return out


def take(items: Iterable[Any], budget: int, start: int = 0) -> tuple[list[Any], int | None]:
    """Items from `start` while they fit in `budget` characters (at least one, so paging always
    moves); the index to resume from, or None when all were taken."""
    out: list[Any] = []
    used = 0
    i = start
    for i, item in enumerate(items):
        if i < start:
            continue
        item = fit(item, budget)
        n = size(item) + 1
        if out and used + n > budget:
            return out, i
        out.append(item)
        used += n
    return out, None


def cursor_of(n: int | None) -> str | None:
    return None if n is None else str(n)


def start_of(cursor: str | None) -> int:
    if not cursor:
        return 0
    try:
        n = int(cursor)
    except ValueError:
        n = -1
    if n < 0:
        raise UsageError(f"cursor {cursor!r} is not one an answer handed out")
    return n


def change_line(change: dict[str, Any], t: Callable[..., str]) -> str:
    """One change in a line: where, and what to write or remove, in the site's own syntax."""
    where = f"{change.get('file')}:{change.get('line')}" if change.get("line") else str(change.get("file"))
    if change.get("after"):
        what = t("fix.write", what=change["after"])
    elif change.get("before"):
        what = t("fix.remove", what=f"`{change['before']}`")
    else:
        what = f"{change.get('op')} {change.get('target')}"
    if change.get("blocked"):
        what += f" ({change['blocked']})"
    return f"{where}: {what}"


def urgent(report: dict[str, Any], t: Callable[..., str]) -> list[dict[str, Any]]:
    """Every P0 and P1 of the report, P0 first, each with file:line and its change in one line."""
    out = []
    for p in PRIORITIES:
        for s in report["sites"]:
            for r in s["recommendations"]:
                if r["priority"] != p:
                    continue
                loc = r.get("location") or {"file": r["file"], "line": r["line"]}
                out.append({"priority": p, "site": s["id"], "check": r["check"], "title": r["title"],
                            "file": loc["file"], "line": loc["line"],
                            "change": "; ".join(change_line(c, t) for c in r["changes"]) or r.get("advice") or ""})
    return out


def site_line(s: dict[str, Any]) -> dict[str, Any]:
    counts = {p: sum(1 for r in s["recommendations"] if r["priority"] == p) for p in ("P0", "P1", "P2")}
    return {"id": s["id"], "kind": s["kind"], "mode": s["mode"], "framework": s["framework"],
            "vllm": s["vllm"]["version"], "model": (s.get("model") or {}).get("name"), **counts,
            "unknown": sum(1 for c in s["checks"] if c["status"] == "unknown")}


def summary(report: dict[str, Any], t: Callable[..., str], next_hint: str, **head: Any) -> dict[str, Any]:
    """The audit as an agent first reads it, within BUDGET whatever the number of sites; `head`
    leads (the MCP server's report_id and report_uri)."""
    sites = report["sites"]
    modes: dict[str, int] = {}
    verdicts: dict[str, int] = {}
    for s in sites:
        modes[s["mode"]] = modes.get(s["mode"], 0) + 1
        for c in s["checks"]:
            verdicts[c["status"]] = verdicts.get(c["status"], 0) + 1
        if s.get("not_applicable"):  # the plain ones, outside `checks` (engine/report/catalogue.py)
            verdicts["not_applicable"] = verdicts.get("not_applicable", 0) + len(s["not_applicable"])
    proj = report["project"]
    out: dict[str, Any] = {
        **head,
        "root": proj["root"], "files_scanned": proj["files_scanned"], "vllm": proj["vllm"]["source"],
        "skipped_files": len(proj["skipped"]), "hardware": report["hardware"]["description"],
        "summary": report["summary"], "modes": dict(sorted(modes.items())), "verdicts": dict(sorted(verdicts.items())),
        "urgent": [], "urgent_total": 0, "sites": [], "sites_total": len(sites), "complete": True,
    }
    items = urgent(report, t)
    out["urgent_total"] = len(items)
    # P0 and P1 first; then one line per site with what is left
    out["urgent"], rest = take(items, BUDGET * 2 // 3)
    room = BUDGET - size(out)
    out["sites"], more = take([site_line(s) for s in sites], max(room, 2_000))
    out["complete"] = rest is None and more is None
    if not out["complete"]:
        out["next"] = next_hint
    return out


