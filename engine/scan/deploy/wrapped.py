"""Objects inside a wrapper resource: an OpenShift `kind: Template` lists the resources it creates
under `objects:`, a `kind: List` under `items:`. Each is read as a document of its own, its lines
and its fix positions still those of the file (eval89 alpha-hack-program/doc-bot,
https://github.com/alpha-hack-program/doc-bot: vllm_runtime/vllm-mistral-7b-template.yaml holds a
KServe ServingRuntime with the vLLM args; the two templates were missed sites)."""
from __future__ import annotations

from dataclasses import dataclass

from vllm_kb.engine.kb import yamlio

_WRAPPERS = {"Template": "objects", "List": "items"}


@dataclass
class Inner(yamlio.Document):
    prefix: tuple = ()  # the path of the object in the wrapper's document

    def pos(self, path) -> dict:
        return {"yaml": [self.index, [*self.prefix, *path]]}


def unwrap(docs: list) -> list:
    """The documents, each wrapper replaced by the objects it holds (one level; a wrapper of no objects kept)."""
    out = []
    for doc in docs:
        data = doc.data
        kind = data.get("kind") if isinstance(data, dict) else None
        key = _WRAPPERS.get(kind) if isinstance(kind, str) else None
        objects = data.get(key) if key else None
        inner = [(i, o) for i, o in enumerate(objects) if isinstance(o, dict)] if isinstance(objects, list) else []
        if not inner:
            out.append(doc)
            continue
        for i, obj in inner:
            head = (key, i)
            lines = {p[2:]: ln for p, ln in doc.lines.items() if p[:2] == head}
            out.append(Inner(obj, lines, doc.lines.get(head, doc.start_line), doc.index, doc.gaps, head))
    return out
