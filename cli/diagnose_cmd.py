"""`vllm-kb diagnose --symptom oom|throughput|ttft|itl|rlhf [PATH]`: walk the decision tree of
knowledge/decision_tree.yaml over each site's audit facts and print the path taken, the
evidence, the open questions and the changes in the site's own syntax. Exit 0 after a diagnosis
(it is advice, not a gate), 2 for a usage error."""
from __future__ import annotations

import json
import sys

from vllm_kb.engine.kb.errors import EXIT_CLEAN


def add_parser(sub) -> None:
    d = sub.add_parser("diagnose", help="walk the decision tree for a symptom (oom, throughput, ttft, itl, rlhf)")
    d.add_argument("path", nargs="?", default=None,
                   help="project folder or single file; omit to diagnose from the hardware and your answers alone")
    d.add_argument("--symptom", choices=("oom", "throughput", "ttft", "itl", "rlhf"),
                   help="what goes wrong (or give --error)")
    d.add_argument("--error-file", metavar="FILE", help="read the error text from FILE (a log or a pasted traceback; - for stdin)")
    d.add_argument("--error", help="an error message, a pasted traceback or a log excerpt (- reads it from stdin); the exception lines weigh first, then the frames' source lines (a bare AssertionError is named by its `assert …`), then the rest: a launch failure is named by the launch check whose vLLM wording it matches (knowledge/checks, error_text); otherwise mapped to a symptom by knowledge/decision_tree.yaml; when neither matches, the closest launch checks by the error's words are named as such (exit 2 only when nothing points anywhere)")
    d.add_argument("--gpu", default="auto", help='"H100-80GB x8", "H100-80GB x8, host 1TiB, cpus 64" (a node\'s RAM and cores too), "24GiB cc8.9 x2" (a GPU outside the table), "RTX-5070-Ti + RTX-5090" (different cards, in device order), "g5.12xlarge" (a cloud machine type), "none", or auto (probe this machine with NVML and /proc/meminfo; default)')
    d.add_argument("--site", help="only the launch site at FILE[:LINE] (relative to PATH)")
    d.add_argument("--answer", action="append", default=[], metavar="ID=VALUE",
                   help="answer a question the facts cannot (repeatable), e.g. --answer oom_phase=runtime")
    d.add_argument("--vllm-version", help="evaluate as this vLLM release instead of the project's pin")
    d.add_argument("--lang", choices=("en", "zh"), default="en")
    d.add_argument("--format", choices=("text", "json"), default="text")
    d.set_defaults(func=run)


def run(ns) -> int:
    from vllm_kb.engine.diagnosis import diagnose
    from vllm_kb.engine.kb.safe_text import paths, shown
    from vllm_kb.engine.report import json_text
    from vllm_kb.engine.report.diagnosis import record

    error = _error_text(ns)
    res = diagnose(ns.path, symptom=ns.symptom, error=error, gpu=ns.gpu, site=ns.site,
                   answers=ns.answer, vllm_version=ns.vllm_version)
    data = record(res, ns.lang)
    if ns.format == "json":
        sys.stdout.write(json_text.dumps(paths(data)) + "\n")
    else:
        sys.stdout.write(render(shown(data), res.kb, ns.lang))
    return EXIT_CLEAN


def _error_text(ns) -> str | None:
    """--error TEXT, --error - (stdin) or --error-file FILE|-: bounded to the tail a traceback ends with."""
    from vllm_kb.engine.kb.errors import UsageError
    from vllm_kb.engine.kb.traceback_text import MAX_CHARS

    if ns.error is not None and ns.error_file is not None:
        raise UsageError("give --error or --error-file, not both")
    src = ns.error_file if ns.error_file is not None else ("-" if ns.error == "-" else None)
    if src is None:
        return ns.error
    try:
        if src == "-":
            raw = sys.stdin.buffer.read()
        else:
            with open(src, "rb") as f:
                f.seek(0, 2)
                f.seek(max(0, f.tell() - 4 * MAX_CHARS))
                raw = f.read()
    except OSError as e:
        raise UsageError(f"cannot read the error text from {src}: {e.strerror or e}") from None
    return raw[-4 * MAX_CHARS:].decode("utf-8", "replace")


def _fmt(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (dict, list)):
        return json.dumps(v, ensure_ascii=False)
    return str(v)


def change_text(kb, lang: str, c: dict, framework: str | None) -> str:
    if c.get("blocked"):
        return kb.t("fix.blocked_" + c["blocked"], lang, target=c["target"], framework=framework or "", origin=c.get("origin", ""), value=c.get("value"), after=c.get("after") or kb.t("fix.remove", lang, what=f"`{c['before']}`"))
    text = c["after"] if c["after"] else kb.t("fix.remove", lang, what=c["before"])
    where = (f"{c['file']}:{c['line']}" if c["line"] else c["file"]) if c["file"] else ""
    return f"{where}: {text}" if where else text


def render(data: dict, kb, lang: str) -> str:
    t = lambda key, **kw: kb.t(key, lang, **kw)
    out = []
    launch = data.get("launch") or []
    shared = any(h["kind"] == "shared" for h in launch)
    for h in launch:
        out += _launch(h, kb, lang, t, shared) + [""]
    if data["symptom"]:
        out.append(t("diagnose.title", symptom=data["symptom"]["title"]))
    if data["matched"] and data["symptom"]:
        out.append(t("diagnose.matched", matcher=data["matched"]["matcher"]))
    if data["observed"]:
        out.append(t("diagnose.observed", what=", ".join(f"{k}={_fmt(v)}" for k, v in data["observed"].items())))
    out.append(t("diagnose.hardware", hw=data["hardware"]))
    if not data["diagnoses"] and data["symptom"]:
        out.append(t("diagnose.no_sites", path=data["root"] or "."))
    for d in data["diagnoses"]:
        out.append("")
        out += _site(d, kb, lang, t)
    if data["symptom"]:
        out += ["", t("diagnose.estimates")]
    return "\n".join(out) + "\n"


def _launch(h: dict, kb, lang: str, t, shared: bool = False) -> list[str]:
    if h["kind"] == "uncovered":
        return [t("diagnose.uncovered", vllm=h["wording_vllm"] or "—"), "  " + t("diagnose.launch_wording", text=h["wording"], vllm=h["wording_vllm"] or "—"),
                "  " + h["advice"]]
    if h["kind"] == "closest":
        # beside a wording several causes print, the other candidates are named by the rest of the text
        lines = [t("diagnose.closest_context" if shared else "diagnose.closest", id=h["id"], name=h["name"], title=h["title"]),
                 "  " + t("diagnose.closest_words", text=h["wording"])]
    elif h["kind"] == "shared":
        lines = [t("diagnose.shared", id=h["id"], name=h["name"], title=h["title"]),
                 "  " + t("diagnose.launch_wording", text=h["wording"], vllm=h["wording_vllm"] or "—")]
    else:
        lines = [t("diagnose.launch", id=h["id"], name=h["name"], title=h["title"]),
                 "  " + t("diagnose.launch_wording", text=h["wording"], vllm=h["wording_vllm"] or "—")]
    lines.append("  " + h["advice"])
    for v in h["sites"]:
        s = v["site"]
        head = t("diagnose.site", id=s["id"], kind=s["kind"], mode=s["mode"], model=s["model"] or "?", version=s["vllm"])
        status = kb.t("status." + v["status"], lang) + (f" ({v['priority']})" if v["priority"] and v["status"] == "recommended" else "")
        lines.append("  " + head)
        lines.append("    " + status + (f" — {v['reason']}" if v["reason"] else ""))
        framework = s["framework"] if s["framework"] != "none" else None
        for c in v["changes"]:
            lines.append(f"    → {change_text(kb, lang, c, framework)}")
    return lines


def _site(d: dict, kb, lang: str, t) -> list[str]:
    colon = "：" if lang == "zh" else ":"
    s = d["site"]
    lines = [t("diagnose.site", id=s["id"], kind=s["kind"], mode=s["mode"], model=s["model"] or "?", version=s["vllm"])
             if s else t("diagnose.no_site")]
    if d["skipped"]:
        return lines + ["  " + d["skipped"]]
    lines.append(t("diagnose.path") + colon)
    for p in d["path"]:
        pad = "  " * (p["depth"] + 1)
        head = p["answer"] or p["question"] or p["node"]
        ev = ", ".join(f"{e['fact']} = {_fmt(e['value'])}" for e in p["evidence"])
        lines.append(f"{pad}{'→ ' if p['depth'] else ''}{head}" + (f"  [{ev}]" if ev else "") + f"  ({p['node']})")
        if p["answer"] and p["question"]:
            lines.append(f"{pad}  {p['question']}")
        if p["alternatives"]:
            lines.append(f"{pad}  " + t("diagnose.also", what="; ".join(a["answer"] for a in p["alternatives"])))
    framework = s["framework"] if s and s["framework"] != "none" else None
    if d["leaves"]:
        lines.append(t("diagnose.leaves") + colon)
    for leaf in d["leaves"]:
        lines.append(f"  [{leaf['priority']}] {leaf['advice']}  ({leaf['node']})")
        for c in leaf["checks"]:
            lines.append("      " + t("diagnose.check", id=c["id"], title=c["title"], status=kb.t("status." + c["status"], lang),
                                      reason=c["reason"]))
        for u in leaf["unresolved"]:
            lines.append("      " + t("diagnose.unresolved", target=u["target"], what="; ".join(n["hint"] for n in u["needs"])))
    lines.append(t("diagnose.changes") + colon)
    if not d["changes"]:
        lines.append("  " + t("diagnose.changes_none"))
    for i, c in enumerate(d["changes"], 1):
        lines.append(f"  {i}. [{c['priority']}] {change_text(kb, lang, c, framework)}  ({', '.join(c['checks'])})")
    if d["questions"]:
        lines.append(t("diagnose.questions") + colon)
    for q in d["questions"]:
        lines.append(f"  ? {q['question']}  ({q['node']})")
        for n in q["needs"]:
            hint = n["hint"]
            if n.get("observation"):
                hint += "  — " + t("diagnose.answer_with", id=n["observation"], values="|".join(n["values"]))
            lines.append("      " + t("diagnose.needs", what=hint))
        if len(q["candidates"]) > 1 or q["candidates"][0]["node"] != q["node"]:
            lines.append("      " + t("diagnose.candidates"))
            for c in q["candidates"]:
                lines.append(f"        - {c['answer']}  ({c['node']})")
    for b in d["diffs"]:
        lines.append(t("diagnose.diff", file=b["file"]))
        lines += ["    " + x for x in b["text"].splitlines()]
    return lines
