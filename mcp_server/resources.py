"""Read-only resources: every knowledge file as shipped (`vllm-kb://knowledge/<path>`), every
JSON Schema (`vllm-kb://schema/<file>`), and each check as a bilingual record with its fix
spellings (`vllm-kb://checks/B3`). Contents are read when a client asks, not at start-up."""
from __future__ import annotations

import json
from typing import Iterator

from mcp.server.mcpserver.resources import FunctionResource, Resource

from vllm_kb.engine.kb import resources as shipped
from vllm_kb.engine.kb.resources import Traversable
from vllm_kb.engine.kb.knowledge import load
from vllm_kb.engine.report import check_docs as records

SCHEME = "vllm-kb://"
MIME = {".yaml": "application/yaml", ".yml": "application/yaml", ".json": "application/json"}


def _files(node: Traversable, prefix: str = "") -> Iterator[tuple[str, Traversable]]:
    for child in sorted(node.iterdir(), key=lambda c: c.name):
        if child.name.startswith(("_", ".")):
            continue  # __init__.py, __pycache__
        rel = prefix + child.name
        if child.is_dir():
            yield from _files(child, rel + "/")
        elif any(child.name.endswith(ext) for ext in MIME):
            yield rel, child


def _mime(name: str) -> str:
    return next(v for k, v in MIME.items() if name.endswith(k))


def _file_resource(package: str, rel: str, node: Traversable, description: str) -> Resource:
    return FunctionResource.from_function(
        fn=lambda: node.read_text(encoding="utf-8"), uri=f"{SCHEME}{package}/{rel}", name=f"{package}/{rel}",
        title=f"{package}/{rel}", description=description, mime_type=_mime(rel))


def _check_resource(check_id: str, title: str) -> Resource:
    def read() -> str:
        kb = load()
        return json.dumps(records.record(kb.checks.get(check_id), kb, None), ensure_ascii=False, indent=2)

    return FunctionResource.from_function(
        fn=read, uri=f"{SCHEME}checks/{check_id}", name=f"check {check_id}", title=f"{check_id} {title}",
        description=f"Check {check_id}: texts in en and zh, rules in order, and how its fix is written "
                    "in each syntax.", mime_type="application/json")


def all_resources() -> list[Resource]:
    out: list[Resource] = []
    for rel, node in _files(shipped.root("knowledge")):
        out.append(_file_resource("knowledge", rel, node, f"Knowledge file knowledge/{rel}, as the engine reads it."))
    for rel, node in _files(shipped.root("schema")):
        out.append(_file_resource("schema", rel, node, f"JSON Schema schema/{rel}."))
    kb = load()
    out += [_check_resource(c.id, c.title.en) for c in kb.checks]
    return out
