"""The MCP server's side of bounded answers (the summary itself: engine/report/summary.py): the
full reports, kept compact in a file of the server's own temporary folder (never the user's
repository) for `audit_details` to page through and `vllm-kb://reports/{id}` to serve whole."""
from __future__ import annotations

import json
import os
import tempfile
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any, Iterable

from vllm_kb.engine.report import catalogue
from vllm_kb.engine.report.summary import BUDGET, cursor_of, start_of, take

KEEP = 8  # reports kept for paging; older ones are deleted


class ReportStore:
    """Full reports by id, each as one compact JSON line per site in a temporary file."""

    def __init__(self) -> None:
        self._dir: Path | None = None
        self._lock = threading.Lock()
        self._reports: OrderedDict[str, Path] = OrderedDict()
        self._n = 0

    def _folder(self) -> Path:
        if self._dir is None:
            self._dir = Path(tempfile.mkdtemp(prefix="vllm-kb-mcp-"))
        return self._dir

    def put(self, report: dict[str, Any]) -> str:
        with self._lock:
            self._n += 1
            rid = f"r{self._n}"
            path = self._folder() / f"{rid}.jsonl"
            head = {k: v for k, v in report.items() if k != "sites"}
            with open(path, "w", encoding="utf-8") as f:
                f.write(json.dumps(head, ensure_ascii=False) + "\n")
                for s in report.get("sites", []):
                    f.write(json.dumps(s, ensure_ascii=False) + "\n")
            self._reports[rid] = path
            while len(self._reports) > KEEP:
                _, old = self._reports.popitem(last=False)
                try:
                    os.unlink(old)
                except OSError:
                    pass
            return rid

    def _path(self, rid: str) -> Path:
        from vllm_kb.engine.kb.errors import UsageError

        path = self._reports.get(rid)
        if path is None or not path.exists():
            raise UsageError(f"no report {rid!r} on this server (it keeps the last {KEEP}); call `audit` again")
        return path

    def head(self, rid: str) -> dict[str, Any]:
        with open(self._path(rid), encoding="utf-8") as f:
            return json.loads(f.readline())

    def sites(self, rid: str) -> Iterable[dict[str, Any]]:
        with open(self._path(rid), encoding="utf-8") as f:
            f.readline()
            for line in f:
                yield json.loads(line)

    def full(self, rid: str) -> dict[str, Any]:
        report = self.head(rid)
        report["sites"] = list(self.sites(rid))
        return report


def details(store: ReportStore, rid: str, *, site: str | None, check: str | None, priority: str | None,
            cursor: str | None) -> dict[str, Any]:
    """A page of the full report: whole sites (by default or `site`), one check across sites
    (`check`), or the recommendations of one priority (`priority`)."""
    start = start_of(cursor)
    head = store.head(rid)  # the check catalogue the sites refer to
    sites: Iterable[dict[str, Any]] = store.sites(rid)
    if site is not None:
        sites = [s for s in sites if s["id"] == site or s["file"] == site or s["id"].startswith(site + ":")]
        if not sites:
            from vllm_kb.engine.kb.errors import UsageError

            raise UsageError(f"no site {site!r} in report {rid}; site ids are FILE:LINE")
    if check is not None:
        key = check.strip()
        items: Iterable[Any] = (
            {"site": s["id"], **c, "recommendations": [r for r in s["recommendations"] if r["check"] == c["id"]]}
            for s in sites for c in catalogue.site_checks(head, s) if key.upper() == c["id"] or key == c["name"])
        kind = "checks"
    elif priority is not None:
        items = ({"site": s["id"], **r} for s in sites for r in s["recommendations"] if r["priority"] == priority.upper())
        kind = "recommendations"
    else:
        index = catalogue.by_id(head)
        items = (catalogue.with_reasons(head, s, index) for s in sites)
        kind = "sites"
    page, nxt = take(items, BUDGET, start)
    return {"report_id": rid, "kind": kind, "items": page, "next_cursor": cursor_of(nxt)}
