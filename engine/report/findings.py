"""The report as a flat list of findings — one per recommendation, remark or note, each with its
rule id, priority, place, message and fingerprint — for the formats that speak in findings
(SARIF, GitHub annotations, JSON Lines) and for the exit code. Everything comes from the report
dict (engine/report/model.py), so these formats say what the JSON report says."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from vllm_kb.engine.kb.knowledge import load

LEVEL = {"P0": "error", "P1": "warning", "P2": "note", None: "note"}


def rule_of(entry_id: str) -> str:
    """`not-in-version:swap_space` → `not-in-version`; `B3` stays."""
    return entry_id.split(":", 1)[0]


def change_text(c: dict, lang: str, framework: str = "", prefix: str = "") -> str:
    kb = load()
    where = f"{prefix}{c['file']}:{c['line']}" if c.get("line") else prefix + c["file"]
    if c.get("blocked"):
        what = kb.t("fix.blocked_" + c["blocked"], lang, target=c["target"], framework=framework,
                    origin=c.get("origin", ""), value=c.get("value"),
                    after=c.get("after") or kb.t("fix.remove", lang, what=f"`{c['before']}`"))  # an alternative removal
    elif c.get("op") == "rename":
        what = kb.t("fix.rename", lang, before=c["before"], after=c["after"])
    elif c.get("after"):
        what = kb.t("fix.write", lang, what=c["after"])
    else:
        what = kb.t("fix.remove", lang, what=f"`{c['before']}`")
    return f"{where}: {what}"


def fixable(c: dict) -> bool:
    """Whether `--fix` can write the change (the report says so per change)."""
    return bool(c.get("fixable"))


def entries(data: dict, prefix: str = "") -> Iterator[dict[str, Any]]:
    """Every finding of a report, in report order (site by site, by priority). `prefix` is put
    before the paths in the change texts (SARIF and annotations name files from the working folder)."""
    lang = data["lang"]
    for s in data["sites"]:
        fw = (s.get("framework_info") or {}).get("name") or s.get("framework", "")
        for r in s["recommendations"]:
            loc = r.get("location") or {"file": r["file"], "line": r["line"]}
            title = r["title"]
            message = f"{title} — {r['reason']}" if r["reason"] else title
            yield {
                "rule": rule_of(r["check"]), "id": r["check"], "name": r["name"], "kind": r["kind"],
                "priority": r["priority"], "level": LEVEL.get(r["priority"], "note"),
                "file": loc["file"], "line": loc["line"], "site": s["id"], "site_file": s["file"], "site_line": s["line"],
                "site_kind": s["kind"], "title": title, "reason": r["reason"], "message": message,
                "fix": [change_text(c, lang, fw, prefix) for c in r["changes"]],
                "fingerprint": r.get("fingerprint"), "safe": bool(r["safe"]),
                "fixable": any(fixable(c) for c in r["changes"]), "changes": r["changes"],
            }
        for f in s["findings"]:
            yield _note(f, s)
    for f in data.get("findings", []):
        yield _note(f, None)


def _note(f: dict, s: dict | None) -> dict[str, Any]:
    return {
        "rule": f["code"], "id": f["code"], "name": f["code"], "kind": "finding" if f["priority"] else "note",
        "priority": f["priority"], "level": LEVEL.get(f["priority"], "note"), "file": f["file"], "line": f["line"],
        "site": s["id"] if s else None, "site_file": s["file"] if s else None, "site_line": s["line"] if s else None,
        "site_kind": s["kind"] if s else None, "title": f["message"], "reason": "", "message": f["message"], "fix": [],
        "fingerprint": f.get("fingerprint"), "safe": False, "fixable": False, "changes": [],
    }


def suppressed(data: dict) -> Iterator[dict[str, Any]]:
    for s in data["sites"]:
        for x in s.get("suppressed", []):
            yield {**x, "site_file": s["file"], "site_line": s["line"], "site_kind": s["kind"],
                   "level": LEVEL.get(x["priority"], "note")}


def worst(data: dict) -> str | None:
    """The highest priority among the findings (None: none has a priority)."""
    order = {"P0": 0, "P1": 1, "P2": 2}
    ps = [e["priority"] for e in entries(data) if e["priority"] in order]
    return min(ps, key=order.__getitem__) if ps else None
