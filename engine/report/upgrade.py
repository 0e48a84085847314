"""The upgrade plan as a report: one record (JSON), rendered as text or markdown, in English or
Chinese, with the changes `--fix` writes as a diff."""
from __future__ import annotations

from vllm_kb.engine.advise.upgrade import KINDS
from vllm_kb.engine.kb.redact import redact


def record(res, lang: str, fixed=None) -> dict:
    """`res`: engine/upgrade.UpgradeResult; `fixed`: the FixResult of --fix/--diff, if any."""
    kb = res.kb
    sites = []
    counts = {k: 0 for k in KINDS} | {"fixable": 0}
    for n, p in enumerate(res.plans, 1):
        items = [i.to_json(lang) for i in p.items]
        for i in p.items:
            counts[i.kind] += 1
            counts["fixable"] += int(i.mechanical)
        sites.append({"id": n, "file": p.site.file, "line": p.site.line, "kind": p.site.kind, "framework": p.site.framework,
                      "framework_version": p.site.framework_version, "current": p.current, "target": p.target,
                      "items": [redact(i) for i in items]})
    currents = sorted({p.current for p in res.plans}) or ["—"]
    out = {"target": res.target, "current": currents, "root": str(res.now.root), "sites": sites,
           "summary": kb.t("upgrade.summary", lang, sites=len(sites), **counts), "counts": counts}
    if fixed is not None:
        out["fix"] = {"files": fixed.changed_files, "changes": len(fixed.applied), "diff": redact(fixed.diff()),
                      "refused": [{"file": r.file, "why": r.why, "checks": r.checks, "conflicts": r.conflicts,
                                   **({"target": r.target} if r.target else {})} for r in getattr(fixed, "refused", ())]}
    return out


def _head(data: dict, kb, lang: str) -> str:
    return kb.t("upgrade.title", lang, current=", ".join(data["current"]), target=data["target"])


def _items(site: dict, kb, lang: str, bullet: str) -> list[str]:
    lines = []
    if not site["items"]:
        return [bullet + kb.t("upgrade.nothing", lang)]
    for kind in KINDS:
        these = [i for i in site["items"] if i["kind"] == kind]
        if not these:
            continue
        lines.append(bullet + kb.t("upgrade.kind." + kind, lang) + ("：" if lang == "zh" else ":"))
        for i in these:
            tags = [i["priority"]] + ([kb.t("upgrade.fixable", lang)] if i["mechanical"] else []) \
                + ([kb.t("upgrade.already", lang, current=site["current"])] if i.get("already") else [])
            lines.append(f"    - [{', '.join(tags)}] {i['text']}")
    return lines


def text(data: dict, kb, lang: str) -> str:
    out = [_head(data, kb, lang), ""]
    if not data["sites"]:
        out.append(kb.t("upgrade.no_sites", lang, path=data["root"]))
    for s in data["sites"]:
        where = f"{s['file']}:{s['line']}"
        out.append(kb.t("upgrade.site", lang, id=s["id"], where=where, kind=s["kind"], current=s["current"], target=s["target"]))
        out += _items(s, kb, lang, "  ")
        out.append("")
    out.append(data["summary"])
    if data.get("fix"):
        out += ["", data["fix"]["diff"].rstrip("\n")]
    return "\n".join(out).rstrip("\n") + "\n"


def markdown(data: dict, kb, lang: str) -> str:
    out = [f"# {_head(data, kb, lang)}", "", data["summary"], ""]
    if not data["sites"]:
        out.append(kb.t("upgrade.no_sites", lang, path=data["root"]))
    for s in data["sites"]:
        where = f"{s['file']}:{s['line']}"
        out.append("## " + kb.t("upgrade.site", lang, id=s["id"], where=where, kind=s["kind"], current=s["current"], target=s["target"]))
        out += [""] + [ln.replace("    - ", "  - ", 1) if ln.startswith("    - ") else ln for ln in _items(s, kb, lang, "- ")] + [""]
    if data.get("fix") and data["fix"]["diff"]:
        out += ["```diff", data["fix"]["diff"].rstrip("\n"), "```", ""]
    return "\n".join(out).rstrip("\n") + "\n"
