"""SARIF 2.1.0 (`--format sarif`), what GitHub code scanning and IDE viewers read.

- ruleId is the check id (`B3`) or the finding's code (`not-in-version`, `trl-legacy-key`,
  `suppression-unused`); rules[] carries each rule's name (PascalCase of the kebab name, which
  is kept in properties), descriptions, helpUri to its docs page and the priority.
- level: P0 error, P1 warning, P2 and unprioritised notes: note.
- the region is the line of the setting a change touches, else the site's line; the site is a
  related location when it is elsewhere.
- partialFingerprints["vllmKb/v1"] is the line-independent fingerprint of engine/check/baseline.py.
- what a suppression comment or the baseline hides is included with `suppressions` (inSource /
  external), so code scanning shows it as dismissed rather than fixed.
- artifact URIs are relative to the working folder when the audited root is inside it (run it
  from the repository root in CI), else to the audited root, with uriBaseId SRCROOT."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from vllm_kb.engine.kb import about
from vllm_kb.engine.kb.knowledge import load
from vllm_kb.engine.check.rules import Rule, pascal, rules
from vllm_kb.engine.report import findings as flat

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
BASE_ID = "SRCROOT"


def doc_path(rule: Rule, lang: str) -> str:
    """The docs page of a rule, relative to docs/ (tools/gen_docs.py writes the same paths)."""
    folder = "checks/zh/" if lang == "zh" else "checks/"
    if rule.kind == "check":
        return f"{folder}{rule.id}.md"
    return f"{folder}findings.md#{rule.id}"


def help_uri(rule: Rule, lang: str, base: str | None = None) -> str:
    base = base or about.docs_url()  # a project points elsewhere with --docs-url, $VLLM_KB_DOCS_URL or docs-url
    return base.rstrip("/") + "/" + doc_path(rule, lang)


def _base(root: str, cwd: str | None = None) -> tuple[Path, str]:
    """The folder URIs are relative to, and the audited root's path below it."""
    root_p = Path(root).resolve()
    cwd_p = Path(cwd or os.getcwd()).resolve()
    if root_p == cwd_p or cwd_p in root_p.parents:
        rel = root_p.relative_to(cwd_p).as_posix()
        return cwd_p, "" if rel == "." else rel + "/"
    return root_p, ""


def _uri(prefix: str, file: str) -> str:
    from urllib.parse import quote

    return quote(prefix + file, safe="/-_.~")


def _period(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "。", "!", "?", "！", "？")) else text + "."


def _location(prefix: str, file: str, line: int | None) -> dict[str, Any]:
    phys: dict[str, Any] = {"artifactLocation": {"uri": _uri(prefix, file), "uriBaseId": BASE_ID}}
    if line and line > 0:
        phys["region"] = {"startLine": int(line)}
    return {"physicalLocation": phys}


def _rule_json(rule: Rule, lang: str, docs_url: str | None) -> dict[str, Any]:
    kb = load()
    props: dict[str, Any] = {"priority": rule.priority, "kind": rule.kind, "vllm-kb-name": rule.name,
                             "tags": ["vllm", "performance" if rule.kind == "check" else "correctness"]}
    if rule.check is not None:
        cat = kb.category(rule.check.category)
        props["category"] = rule.category
        props["tags"].append(f"{rule.category}. {cat['title']['en']}")
        if rule.check.aliases:
            props["aliases"] = list(rule.check.aliases)
    return {
        "id": rule.id,
        "name": pascal(rule.name),
        "shortDescription": {"text": _period(rule.short(lang))},
        "fullDescription": {"text": _period(rule.full(lang) or rule.short(lang))},
        "helpUri": help_uri(rule, lang, docs_url),
        "defaultConfiguration": {"level": flat.LEVEL.get(rule.priority, "note")},
        "properties": props,
    }


def render(data: dict, docs_url: str | None = None, cwd: str | None = None) -> str:
    from vllm_kb.engine.report import json_text

    return json_text.dumps(build(data, docs_url, cwd)) + "\n"


def build(data: dict, docs_url: str | None = None, cwd: str | None = None) -> dict[str, Any]:
    kb = load()
    lang = data["lang"]
    reg = rules()
    base, prefix = _base(data["project"]["root"], cwd)
    order: dict[str, int] = {}
    rule_objs: list[dict[str, Any]] = []

    def index(code: str) -> int:
        if code not in order:
            order[code] = len(rule_objs)
            rule_objs.append(_rule_json(reg.for_code(code), lang, docs_url))
        return order[code]

    results = []
    for e in flat.entries(data, prefix):
        results.append(_result(e, index(e["rule"]), prefix, lang, kb))
    for x in flat.suppressed(data):
        r = _result({**x, "rule": x["rule"], "title": x["message"], "reason": "", "message": x["message"], "fix": [],
                     "kind": "check"}, index(x["rule"]), prefix, lang, kb)
        r["suppressions"] = [{"kind": "inSource" if x["kind"] == "comment" else "external",
                              "justification": x["reason"] or ""}]
        if x.get("where"):
            f, _, ln = x["where"].rpartition(":")
            r["suppressions"][0]["location"] = _location(prefix, f, int(ln))
        results.append(r)
    notifications = [{"level": "note", "message": {"text": _period(f"{k['file']}: {k['reason']}")},
                      "locations": [_location(prefix, k["file"], k.get("line"))]} for k in data["project"]["skipped"]]
    tool = data["tool"]
    run: dict[str, Any] = {
        "tool": {"driver": {
            "name": "vllm-kb", "version": tool["version"], "semanticVersion": _semver(tool["version"]),
            "informationUri": about.REPOSITORY,
            "rules": rule_objs,
            "properties": {"knowledgeVersion": tool["knowledge_version"]},
        }},
        "originalUriBaseIds": {BASE_ID: {"uri": base.as_uri().rstrip("/") + "/"}},
        "invocations": [{"executionSuccessful": True, "toolExecutionNotifications": notifications}],
        "language": "zh-CN" if lang == "zh" else "en-US",
        "results": results,
        "properties": {"summary": data["summary"], "vllm": data["project"]["vllm"]["version"]},
    }
    if not notifications:
        run["invocations"][0].pop("toolExecutionNotifications")
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def _semver(v: str) -> str:
    import re

    m = re.match(r"(\d+)\.(\d+)\.(\d+)", v)
    return ".".join(m.groups()) if m else "0.0.0"


def _result(e: dict, rule_index: int, prefix: str, lang: str, kb) -> dict[str, Any]:
    text = _period(e["message"])
    if e.get("fix"):
        text += " " + kb.t("sarif.fix", lang, changes="; ".join(e["fix"]))
        text = _period(text)
    r: dict[str, Any] = {
        "ruleId": e["rule"], "ruleIndex": rule_index, "level": e["level"],
        "message": {"text": text},
        "locations": [_location(prefix, e["file"], e["line"])],
    }
    if e.get("fingerprint"):
        r["partialFingerprints"] = {"vllmKb/v1": e["fingerprint"]}
    if e.get("site_file") and (e["site_file"], e["site_line"]) != (e["file"], e["line"]):
        rel = _location(prefix, e["site_file"], e["site_line"])
        rel["id"] = 1
        rel["message"] = {"text": _period(kb.t("sarif.site", lang, kind=e.get("site_kind") or ""))}
        r["relatedLocations"] = [rel]
    props = {"priority": e.get("priority")}
    if e.get("site"):
        props["site"] = e["site"]
    if e.get("id") and e["id"] != e["rule"]:
        props["subject"] = e["id"].split(":", 1)[1] if ":" in e["id"] else e["id"]
    if "safe" in e and e.get("changes"):
        props["safeFix"] = bool(e["safe"])
    r["properties"] = props
    return r
