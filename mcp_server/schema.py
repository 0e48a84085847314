"""The audit tool's outputSchema: schema/report.schema.json, the same contract `vllm-kb audit
--format json` is held to, made self-contained. MCP clients validate structured content
against the schema document alone (no registry, no network), so the definitions it takes
from common.schema.json are copied in under `$defs` as `common.<name>` and pointed there."""
from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any

from vllm_kb.engine.kb import schemas

_COMMON = "common.schema.json#/$defs/"
_LOCAL = "#/$defs/"
_PREFIX = "common."


def _rewrite(node: Any, external: str, todo: list[str]) -> Any:
    """Point refs that start with `external` at the bundled copies, noting which are needed."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(external):
            name = ref[len(external):]
            todo.append(name)
            node = {**node, "$ref": _LOCAL + _PREFIX + name}
        return {k: _rewrite(v, external, todo) for k, v in node.items()}
    if isinstance(node, list):
        return [_rewrite(v, external, todo) for v in node]
    return node


@lru_cache(maxsize=1)
def report_schema() -> dict[str, Any]:
    todo: list[str] = []
    doc = _rewrite(copy.deepcopy(schemas.raw("report")), _COMMON, todo)
    common = schemas.raw("common")["$defs"]
    while todo:
        name = todo.pop()
        key = _PREFIX + name
        if key in doc["$defs"]:
            continue
        # inside common.schema.json a local ref means another common definition
        doc["$defs"][key] = _rewrite(copy.deepcopy(common[name]), _LOCAL, todo)
    # This is a derived document, not the published file: it must not claim the file's `$id`.
    doc.pop("$id", None)
    return doc
