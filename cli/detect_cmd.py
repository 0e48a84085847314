"""`vllm-kb detect [PATH]`: whether the project uses vLLM and the evidence, file:line.
Exit 0 when it does, 1 when it does not (so a hook or an agent can branch on it)."""
from __future__ import annotations

import json
import sys

from vllm_kb.engine.kb.errors import EXIT_CLEAN, EXIT_FINDINGS


def add_parser(sub) -> None:
    d = sub.add_parser("detect", help="does this project use vLLM? evidence file:line; exit 0 yes, 1 no")
    d.add_argument("path", nargs="?", default=".", help="project folder or single file (default: .)")
    d.add_argument("--lang", choices=("en", "zh"), default="en")
    d.add_argument("--format", choices=("text", "json"), default="text")
    d.add_argument("--quiet", "-q", action="store_true", help="print nothing; only the exit code")
    d.add_argument("--all", action="store_true", dest="exhaustive",
                   help="every piece of evidence in every file (default: stop at the first file that gives some)")
    d.set_defaults(func=run)


def run(ns) -> int:
    from vllm_kb.engine.advise import detect
    from vllm_kb.engine.kb.knowledge import load

    det = detect.detect(ns.path, exhaustive=ns.exhaustive)
    data = detect.record(det, ns.lang)
    if ns.quiet:
        pass
    elif ns.format == "json":
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    else:
        sys.stdout.write(render(data, load(), ns.lang))
    return EXIT_CLEAN if det.used else EXIT_FINDINGS


def render(data: dict, kb, lang: str) -> str:
    lines = [data["summary"] + ("" if data.get("complete", True) else " " + kb.t("detect.first_only", lang))]
    for t in data["triggers"]:
        lines.append(f"  {t['id']} {t['name']} — {t['title']}")
        for e in t["evidence"]:
            lines.append(f"      {e['file']}:{e['line']}  {e['what']}")
    if data["skipped"]:
        lines.append(kb.t("detect.skipped", lang, n=len(data["skipped"])))
        lines += [f"  {s['file']}" + (f":{s['line']}" if s["line"] else "") + f"  {s['reason']}" for s in data["skipped"]]
    return "\n".join(lines) + "\n"
