"""Counts in the hand-written pages, generated from the knowledge. A number a page states about
the knowledge is written between markers, `<!-- n:checks -->59<!-- /n --> checks`, and
`python tools/gen_docs.py` rewrites it; tests/test_docs_truth.py fails on a count written
without markers. The markers are HTML comments: rendered Markdown shows the number alone."""
from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from vllm_kb.engine.kb.knowledge import Knowledge

ROOT = Path(__file__).resolve().parent.parent
MARKED = re.compile(r"<!-- n:(?P<key>[a-z-]+) -->(?P<value>[^<]*)<!-- /n -->")
# the nouns a count in the docs is about (tests/test_docs_truth.py looks for unmarked ones)
NOUNS = ("checks", "optimization checks", "launch checks", "categories", "scenarios", "scenario templates", "tables",
         "triggers", "symptoms", "tools", "prompts", "nodes", "cases", "predicates")


def _tree_nodes(kb: Knowledge) -> int:
    def count(node: dict) -> int:
        return 1 + sum(count(c) for c in node.get("children", []) or [])

    return sum(count(s["root"]) for s in kb.doc("decision_tree.yaml").data["symptoms"])


COUNTS: dict[str, Callable[[Knowledge], int]] = {
    "checks": lambda kb: len(kb.checks),
    "launch-checks": lambda kb: sum(1 for c in kb.checks if c.category == "L"),
    "optimization-checks": lambda kb: sum(1 for c in kb.checks if c.category != "L"),
    "categories": lambda kb: len(kb.categories),
    "scenarios": lambda kb: len(kb.doc("scenarios.yaml").data["scenarios"]),
    "tables": lambda kb: len(kb.doc("tables.yaml").data["tables"]),
    "triggers": lambda kb: len(kb.doc("triggers.yaml").data["triggers"]),
    "symptoms": lambda kb: len(kb.doc("decision_tree.yaml").data["symptoms"]),
    "tree-nodes": _tree_nodes,
}


def refresh(text: str, kb: Knowledge, where: str = "") -> str:
    """`text` with every marked count set to the knowledge's; an unknown key is an error."""
    def value(m: re.Match) -> str:
        key = m["key"]
        if key not in COUNTS:
            raise KeyError(f"{where}: unknown count <!-- n:{key} --> (known: {', '.join(COUNTS)})")
        return f"<!-- n:{key} -->{COUNTS[key](kb)}<!-- /n -->"

    return MARKED.sub(value, text)


def pages() -> list[Path]:
    """The hand-written pages that state counts: the README and docs/*.md that nothing generates."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
