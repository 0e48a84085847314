"""`--format summary` (engine/report/summary.py): what an agent reads first — every P0 and P1 with
where and what to change, counts of the rest — within the same budget as the MCP `audit` answer."""
from __future__ import annotations

import json
from pathlib import Path

from vllm_kb.engine.report import summary

EXAMPLE = Path(__file__).parents[1] / "examples" / "quickstart"


def test_summary_format_lists_every_p0_and_p1(cli):
    code, out, _ = cli("audit", str(EXAMPLE), "--gpu", "H100-80GB x8", "--format", "summary")
    brief = json.loads(out)
    _, full, _ = cli("audit", str(EXAMPLE), "--gpu", "H100-80GB x8", "--format", "json")
    report = json.loads(full)
    assert code == 1 and brief["summary"] == report["summary"] and brief["complete"]
    want = sorted((r["priority"], r["check"]) for s in report["sites"] for r in s["recommendations"] if r["priority"] in ("P0", "P1"))
    assert sorted((u["priority"], u["check"]) for u in brief["urgent"]) == want
    assert brief["urgent"][0] == {"priority": "P0", "site": "deploy/serve.sh:10", "check": "B4", "title": "CPU swap space",
                                  "file": "deploy/serve.sh", "line": 14, "change": "deploy/serve.sh:14: remove `--swap-space 8`"}
    assert [s["id"] for s in brief["sites"]] == [s["id"] for s in report["sites"]]


def test_summary_stays_within_budget_and_says_what_is_left():
    site = {"id": "a.sh:1", "kind": "vllm serve", "mode": "standalone_serve", "framework": "none",
            "vllm": {"version": "0.10.1"}, "model": {"name": "m"}, "checks": [{"status": "recommended"}],
            "recommendations": [{"priority": "P1", "check": "A2", "title": "t" * 80, "file": "a.sh", "line": 3,
                                 "changes": [{"file": "a.sh", "line": 3, "before": "--enforce-eager", "after": None}]}]}
    report = {"project": {"root": "/r", "files_scanned": 1, "vllm": {"source": "x"}, "skipped": []},
              "hardware": {"description": "h"}, "summary": {"sites": 5000}, "sites": [dict(site, id=f"a{i}.sh:1") for i in range(5000)]}
    brief = summary.summary(report, lambda key, **kw: f"{key} {kw.get('what', '')}", "more: ask for pages")
    assert summary.size(brief) <= summary.BUDGET and not brief["complete"] and brief["next"] == "more: ask for pages"
    assert brief["urgent_total"] == 5000 > len(brief["urgent"]) > 100 and brief["sites_total"] == 5000
    page, nxt = summary.take(range(10), 8, start=4)
    assert page == [4, 5, 6, 7] and nxt == 8
