"""A method of vLLM's LLM class the project calls on its own engine object where the site's release no
longer defines it (knowledge/vllm/llm_methods.yaml): Python raises AttributeError at the call, after the
engine has loaded the model, so check L287 says it at P1 — the engine starts, the program stops at the
call (bigcodebench's provider calls LLM.set_tokenizer right after building the engine; vLLM 0.13.0 removed
it, deprecated from 0.11.1)."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.kb import versions
from vllm_kb.engine.scan import llm_method_calls


def method_facts(site, vllm: str | None, table: dict, tree_of, read) -> dict[str, Any]:
    """`launch.llm_method_*` facts of the first call of a method `vllm` lacks, or none. `tree_of`: the
    audit's parse of a project file (project_imports.Launches.tree), which L139 has just parsed the
    site's file with: a parse of its own would parse each Python launch file twice."""
    rows = {m["name"]: m for m in table.get("methods") or ()}
    if not rows or not vllm or not site.file.endswith(".py") or versions.try_parse(vllm) is None:
        return {}
    text = read(site.file) or ""
    # an ASCII file spells each attribute it calls as the method's own name: one that names none of
    # them calls none (a non-ASCII one may spell it in NFKC-equivalent letters, so it is walked)
    if text.isascii() and not any(name in text for name in rows):
        return {}
    tree = tree_of(site.file)
    for c in llm_method_calls.calls(tree, site.line, frozenset(rows)):
        row = rows[c.method]
        if not versions.contains(row["have"], vllm):
            return {"llm_method_gone": f"`{c.receiver}.{c.method}(…)` ({site.file}:{c.line})",
                    "llm_method_name": c.method, "llm_method_have": row["have"],
                    "llm_method_instead": row["instead"]["en"], "llm_method_instead_zh": row["instead"]["zh"]}
    return {}
