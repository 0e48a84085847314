"""`--statistics`: how many findings each rule has, instead of the findings (as ruff prints it):
count, rule id, its highest priority, `[*]` when `--fix` writes some of them, and the rule's
name. `--format json` gives the same as a list of objects."""
from __future__ import annotations

import json
from typing import Any

from vllm_kb.engine.report import findings as flat

_ORDER = {"P0": 0, "P1": 1, "P2": 2}


def counts(data: dict) -> list[dict[str, Any]]:
    by_rule: dict[str, dict[str, Any]] = {}
    for e in flat.entries(data):
        row = by_rule.setdefault(e["rule"], {"code": e["rule"], "name": e["name"], "priority": None, "count": 0,
                                             "fixable": 0})
        row["count"] += 1
        row["fixable"] += 1 if e["fixable"] and e["safe"] else 0
        if e["priority"] and (row["priority"] is None or _ORDER[e["priority"]] < _ORDER[row["priority"]]):
            row["priority"] = e["priority"]
    return sorted(by_rule.values(), key=lambda r: (-r["count"], _ORDER.get(r["priority"] or "", 3), r["code"]))


def render(data: dict, fmt: str = "text") -> str:
    rows = counts(data)
    if fmt == "json":
        return json.dumps(rows, ensure_ascii=False, indent=2) + "\n"
    if not rows:
        return ""
    wc = max(len(str(r["count"])) for r in rows)
    wr = max(len(r["code"]) for r in rows)
    return "".join(f"{r['count']:>{wc}}\t{r['code']:<{wr}}\t{r['priority'] or '-':<2}\t"
                   f"{'[*] ' if r['fixable'] else ''}{r['name']}\n" for r in rows)
