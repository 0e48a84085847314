"""What each subcommand does; argument parsing and the error boundary live in main.py."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from vllm_kb.engine.errors import EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, UsageError

PRIORITY_RANK = {"P0": 0, "P1": 1, "P2": 2}


def _write(text: str, output: str | None) -> None:
    if output:
        try:
            Path(output).write_text(text, encoding="utf-8")
        except OSError as e:
            raise UsageError(f"cannot write {output}: {e.strerror or e}") from None
    else:
        sys.stdout.write(text)


def print_version() -> int:
    from vllm_kb.engine import catalog, knowledge
    from vllm_kb.engine.report.model import tool_version

    kb = knowledge.load()
    cat = catalog.load()
    print(f"vllm-kb {tool_version()} (knowledge {kb.version}; vLLM catalog {cat.oldest} … {cat.newest})")
    return EXIT_CLEAN


def audit(ns) -> int:
    from vllm_kb.engine.audit import audit as run
    from vllm_kb.engine.report import model

    rep = run(ns.path, gpu=ns.gpu, vllm_version=ns.vllm_version)
    data = model.build(rep, ns.lang)
    if ns.format == "json":
        text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    elif ns.format == "markdown":
        from vllm_kb.engine.report import markdown

        text = markdown.render(data)
    else:
        from vllm_kb.engine.report import text as text_mod

        if ns.output:
            text = text_mod.render(data, width=100, color=False)
        else:
            text_mod.print_report(data)
            text = None
    if text is not None:
        _write(text, ns.output)
    _summary(data, ns)
    if ns.exit_zero or ns.fail_on == "never":
        return EXIT_CLEAN
    threshold = PRIORITY_RANK[ns.fail_on]
    worst = min((PRIORITY_RANK.get(p, 9) for s in data["sites"] for p in
                 [r["priority"] for r in s["recommendations"]] + [f["priority"] for f in s["findings"] if f["priority"]]), default=9)
    return EXIT_FINDINGS if worst <= threshold else EXIT_CLEAN


def _summary(data: dict, ns) -> None:
    from vllm_kb.engine.knowledge import load

    kb = load()
    s = data["summary"]
    line = kb.t("report.summary", ns.lang, sites=s["sites"], p0=s["recommendations"]["P0"], p1=s["recommendations"]["P1"],
                p2=s["recommendations"]["P2"], unknown=s["unknown"])
    skipped = data["project"]["skipped"]
    if skipped:
        line += " " + kb.t("report.skipped_n", ns.lang, n=len(skipped))
    if ns.format != "text" or ns.output:
        print(line, file=sys.stderr)


def checks_list(ns) -> int:
    from vllm_kb.engine.knowledge import load

    kb = load()
    for cat in kb.categories:
        print(f"{cat['id']}. {cat['title'][ns.lang]}")
        for c in kb.checks.in_category(cat["id"]):
            print(f"  {c.id:<4} {c.name:<32} {c.priority}  {c.title(ns.lang)}")
    return EXIT_CLEAN


def checks_show(ns) -> int:
    from vllm_kb.engine.knowledge import load

    kb = load()
    c = kb.checks.get(ns.check)
    lang = ns.lang
    print(f"{c.id} {c.name} — {c.title(lang)}")
    print(f"  category: {c.category} ({kb.category(c.category)['title'][lang]})   priority: {c.priority}")
    print(f"  modes: {', '.join(c.modes)}" + (f"   vLLM: {c.vllm}" if c.vllm else ""))
    if c.aliases:
        print(f"  aliases: {', '.join(c.aliases)}")
    print(f"\n  {c.rationale(lang)}\n\n  {c.advice(lang)}\n")
    for r in c.rules:
        print(f"  - {r.status}{' [' + str(r.vllm) + ']' if r.vllm else ''}: {r.when}")
        for op in r.fix:
            print(f"      fix: {op.kind} {op.target}" + (f" = {json.dumps(op.value)}" if op.value is not None else "") + (f" = ({op.value_from})" if op.value_from else ""))
    print(f"  - otherwise: {c.otherwise_status}")
    for s in c.sources:
        print(f"  source: {s['title']} <{s['url']}>")
    return EXIT_CLEAN


def kb_validate(ns) -> int:
    from vllm_kb.engine import validate

    problems, stats = validate.validate_all()
    for p in problems:
        print(str(p), file=sys.stderr)
    if problems:
        print(f"{len(problems)} problem(s) in the knowledge base", file=sys.stderr)
        return EXIT_USAGE
    print(f"knowledge base OK: {stats}")
    return EXIT_CLEAN
