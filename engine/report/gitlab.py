"""`--format gitlab`: a GitLab Code Quality report (the Code Climate issue subset GitLab reads
from `artifacts: reports: codequality:`), shown in the merge request widget and the diff.

Each finding is an object with description, check_name (the rule id), a fingerprint unique in
the report (GitLab shows only the first issue of a fingerprint) built from the finding's own
line-independent fingerprint, severity (P0 critical, P1 major, P2 minor, notes info),
location.path (relative to the working folder, as SARIF's) and location.lines.begin."""
from __future__ import annotations

import hashlib
from typing import Any

from vllm_kb.engine.kb.knowledge import load
from vllm_kb.engine.report import findings as flat
from vllm_kb.engine.report.sarif import _base

SEVERITY = {"P0": "critical", "P1": "major", "P2": "minor", None: "info"}


def _category(e: dict) -> str:
    if e["kind"] == "check":
        return "Performance"
    return "Style" if e["rule"].startswith("suppression-") else "Compatibility"


def build(data: dict, cwd: str | None = None) -> list[dict[str, Any]]:
    from vllm_kb.engine.kb.safe_text import shown

    data = shown(data)  # shown in the merge request: no secret, no control character
    kb = load()
    lang = data["lang"]
    _, prefix = _base(data["project"]["root"], cwd)
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for e in flat.entries(data, prefix):
        description = " ".join(e["message"].split())
        if e["fix"]:
            description += " " + kb.t("sarif.fix", lang, changes="; ".join(e["fix"]))
        path = prefix + e["file"]
        seed = e["fingerprint"] or f"{e['rule']}\x00{path}\x00{e['line']}\x00{e['message']}"
        fp = hashlib.sha256(f"{seed}\x00{path}".encode()).hexdigest()[:32]
        n = 1
        while fp in seen:  # the same finding twice in one file (two sites alike): still one issue each
            fp = hashlib.sha256(f"{seed}\x00{path}\x00{n}".encode()).hexdigest()[:32]
            n += 1
        seen.add(fp)
        out.append({
            "type": "issue",
            "check_name": e["rule"],
            "description": description,
            "categories": [_category(e)],
            "fingerprint": fp,
            "severity": SEVERITY.get(e["priority"], "info"),
            "location": {"path": path, "lines": {"begin": int(e["line"] or 1)}},
        })
    return out


def render(data: dict, cwd: str | None = None) -> str:
    from vllm_kb.engine.report import json_text

    return json_text.dumps(build(data, cwd)) + "\n"
