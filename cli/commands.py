"""What each subcommand does; argument parsing and the error boundary live in main.py."""
from __future__ import annotations

import json
import sys

from vllm_kb.engine.kb.errors import EXIT_CLEAN, EXIT_USAGE


def print_version() -> int:
    from vllm_kb.engine.kb import catalog, knowledge
    from vllm_kb.engine.report.model import tool_version

    kb = knowledge.load()
    cat = catalog.load()
    print(f"vllm-kb {tool_version()} (knowledge {kb.version}; vLLM catalog {cat.oldest} … {cat.newest})")
    return EXIT_CLEAN


def audit(ns) -> int:
    from vllm_kb.cli import audit_cmd

    return audit_cmd.run(ns)


def checks_list(ns) -> int:
    from vllm_kb.engine.kb.knowledge import load

    kb = load()
    for cat in kb.categories:
        print(f"{cat['id']}. {cat['title'][ns.lang]}")
        for c in kb.checks.in_category(cat["id"]):
            print(f"  {c.id:<4} {c.name:<32} {c.priority}  {c.title(ns.lang)}")
    from vllm_kb.engine.check.rules import rules

    print(kb.t("checks.findings_heading", ns.lang))
    for r in rules(kb):
        if r.kind != "check":
            print(f"  {r.id:<37} {r.priority}  {r.short(ns.lang)}")
    return EXIT_CLEAN


def checks_show(ns) -> int:
    from vllm_kb.engine.kb.knowledge import load

    kb = load()
    lang = ns.lang
    if kb.checks.find(ns.check) is None:
        from vllm_kb.engine.check.rules import rules

        finding = rules(kb).find(ns.check)
        if finding is not None:
            # a finding that is not a YAML check: same registry, fewer fields
            print(f"{finding.id} — {finding.short(lang)}")
            print(f"  kind: {finding.kind}   priority: {finding.priority}   defined in: {finding.origin}")
            if finding.full(lang) != finding.short(lang):
                print(f"\n  {finding.full(lang)}")
            return EXIT_CLEAN
    c = kb.checks.get(ns.check)
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
