"""The documents of a YAML or JSON file as the scanners read them: a broken later document leaves
the ones before it standing (reported as partial), a broken file is skipped and reported, and
JSON nested deeper than the YAML loader allows is refused before a scanner walks it."""
from __future__ import annotations

import json

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan.context import ScanContext


def load_docs(ctx: ScanContext, rel: str, text: str) -> list:
    partial: list[yamlio.Document] = []  # the documents read before a broken one
    try:
        if rel.endswith(".json"):
            data = json.loads(text)
            if _too_deep(data, yamlio.MAX_DEPTH):  # the scanners walk what they get
                raise ValueError("nesting too deep")
            return [yamlio.Document(data=data)]
        return yamlio.load_all(text, partial)
    except yamlio.YamlError as e:
        if partial:  # a manifest's later document is broken (a Secret's {{HF_TOKEN}} template): the ones before it stand
            ctx.skip(rel, "yaml-partial", e.line, str(e))
            return partial
        ctx.skip(rel, "yaml-error", e.line, str(e))
    except ValueError as e:
        ctx.skip(rel, "parse-error", detail=str(e)[:120])
    except RecursionError:  # json.loads on [[[[…]]]]
        ctx.skip(rel, "parse-error", detail="nesting too deep")
    return []


def _too_deep(data, limit: int) -> bool:
    stack = [(data, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(node, dict):
            stack.extend((v, depth + 1) for v in node.values())
        elif isinstance(node, list):
            stack.extend((v, depth + 1) for v in node)
    return False
